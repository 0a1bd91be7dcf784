package io.redrive.workflow.runtime;

import io.redrive.store.workflow.InboxRow;
import io.redrive.workflow.history.InboxCodec;
import io.redrive.workflow.history.InboxMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * A turn's batch: its inbox rows in order, each with the message it brings.
 *
 * @param rows the rows as leased
 * @param messages the message of each row, same order
 */
record TurnBatch(List<InboxRow> rows, List<InboxMessage> messages) {

  /** Reads a leased batch (a row it cannot read becomes {@link InboxMessage.Unreadable}). */
  static TurnBatch of(List<InboxRow> rows) {
    List<InboxMessage> messages = new ArrayList<>(rows.size());
    for (InboxRow row : rows) {
      messages.add(InboxCodec.decode(row));
    }
    return new TurnBatch(List.copyOf(rows), messages);
  }

  /** The first message of {@code type}, or null. */
  <M extends InboxMessage> M first(Class<M> type) {
    for (InboxMessage m : messages) {
      if (type.isInstance(m)) {
        return type.cast(m);
      }
    }
    return null;
  }

  /** The inbox sequence numbers of the batch (the rows the commit consumes). */
  List<Long> seqs() {
    List<Long> seqs = new ArrayList<>(rows.size());
    for (InboxRow r : rows) {
      seqs.add(r.seq());
    }
    return seqs;
  }

  int size() {
    return rows.size();
  }
}
