package io.redrive.jdbc;

import io.redrive.deadletter.Fingerprint;
import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.ImportResult;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.Queue;
import io.redrive.store.ImportParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Imports messages keyed by their source id (a second import of one source id into a queue is a
 * no-op), READY or DEAD, each with an {@code IMPORTED} history entry.
 */
final class Importing {
  private final QueueRows queues;
  private final MessageRows messages;
  private final HistoryRows history;
  private final QueueKinds kinds;

  Importing(QueueRows queues, MessageRows messages, HistoryRows history, QueueKinds kinds) {
    this.queues = queues;
    this.messages = messages;
    this.history = history;
    this.kinds = kinds;
  }

  ImportResult importMessages(Connection c, ImportParams params) throws SQLException {
    Queue queue = queues.require(c, params.queue(), false);
    kinds.endings(queue).checkProducer(params.queue(), false);
    PriorityPolicy priority = queue.policy().priority();
    Instant now = params.now();
    long t = now.toEpochMilli();
    List<String> imported = new ArrayList<>();
    List<String> duplicates = new ArrayList<>();
    for (ImportMessage m : params.messages()) {
      String id = params.ids().get();
      int level = m.priority() != null ? m.priority() : priority.defaultPriority();
      boolean inserted =
          messages.insertIfAbsent(
              c,
              new MessageRows.NewRow(
                  id,
                  params.queue(),
                  m.type(),
                  m.payload(),
                  Json.headers(m.headers()),
                  m.stream(),
                  m.dead() ? "DEAD" : "READY",
                  0,
                  0L,
                  t,
                  t,
                  null,
                  m.dead() ? "UNKNOWN" : null,
                  m.dead() ? t : null,
                  m.sourceId(),
                  m.sourceQueue(),
                  null,
                  level,
                  priority.headStartMillis(level),
                  m.limitKey(),
                  null));
      if (inserted) {
        if (m.dead()) {
          // An imported message has no story here, so its group is its type's of reason UNKNOWN.
          messages.setDeadFingerprint(
              c, id, Fingerprint.of(FailureReason.UNKNOWN, m.type(), (FailureRecord) null).key());
        }
        history.insert(
            c,
            id,
            new HistoryEntry(
                0,
                Outcome.IMPORTED,
                null,
                null,
                now,
                null,
                "imported from source id "
                    + m.sourceId()
                    + (m.sourceQueue() == null ? "" : " of " + m.sourceQueue())));
        imported.add(id);
      } else {
        duplicates.add(m.sourceId());
      }
    }
    return new ImportResult(imported, duplicates);
  }
}
