package io.redrive.jdbc;

import io.redrive.jdbc.owned.EndedMessage;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettleResult;
import io.redrive.lease.Settlement;
import io.redrive.message.HistoryEntry;
import io.redrive.message.MessageState;
import io.redrive.store.SettleParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * Ends a message whose handler's result ends it (its queue's {@link QueueEndings#handlerResultEnds}
 * says so, as for a workflow activity): the message and its story are deleted and the endings are
 * told the result (or the failure, with the story), in the caller's transaction, after {@link
 * LockedSettles} locked the row. The queue never retries it.
 */
final class ResultEnds {
  private final MessageRows messages;
  private final HistoryRows history;
  private final CompletionRows completions;
  private final CompletedStories stories;

  ResultEnds(MessageRows messages, HistoryRows history, CompletionRows completions) {
    this.messages = messages;
    this.history = history;
    this.completions = completions;
    this.stories = new CompletedStories(completions);
  }

  /** The settlement of {@code command}, a complete or a fail, on the locked row {@code l}. */
  Settlement end(Connection c, SettleCommand command, MessageRows.Locked l, SettleParams p)
      throws SQLException {
    MessageRow row = l.row();
    Instant now = p.now();
    List<HistoryEntry> story = history.read(c, row.id());
    if (command instanceof SettleCommand.Complete complete) {
      // A completion writes no history entry of its own; the instance's story ends with it.
      List<HistoryEntry> told = new java.util.ArrayList<>(story);
      told.add(
          new HistoryEntry(
              row.attempts(),
              io.redrive.message.Outcome.COMPLETED,
              row.leasedBy(),
              DeliveryEntries.leasedAt(row),
              now.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), // as stored times are
              null,
              null));
      l.endings()
          .ended(
              c,
              new EndedMessage(
                  row.id(),
                  row.queue(),
                  row.attempts(),
                  EndedMessage.Ending.COMPLETED,
                  complete.result(),
                  null,
                  () -> told,
                  now));
      long keep =
          CompletedStories.keepMillis(l.policy().completedRetention(), p.completedRetention());
      if (keep > 0) {
        // Its queue keeps completed messages: the row is read whole before it goes.
        CompletedStories.Story kept = stories.read(c, row.id());
        messages.delete(c, row.id());
        stories.record(
            c, List.of(kept), now.toEpochMilli(), p.completionWindow(), p.completedRetention());
      } else {
        history.delete(c, row.id());
        messages.delete(c, row.id());
      }
      if (keep == 0 && CompletionRows.remembers(p.completionWindow())) {
        completions.insertAll(
            c,
            List.of(
                new CompletionRows.Completion(
                    row.id(),
                    row.queue(),
                    row.leaseToken(),
                    row.dedupeKey(),
                    row.leasedAt(),
                    now.toEpochMilli())));
      }
      return Settlement.settled(
          command,
          new SettleResult(
              row.id(),
              MessageState.COMPLETED,
              null,
              null,
              null,
              false,
              row.queue(),
              DeliveryEntries.leasedAt(row)));
    }
    SettleCommand.Fail f = (SettleCommand.Fail) command;
    l.endings()
        .ended(
            c,
            new EndedMessage(
                row.id(),
                row.queue(),
                row.attempts(),
                EndedMessage.Ending.FAILED,
                null,
                f.retryAfter(),
                () -> story,
                now));
    history.delete(c, row.id());
    messages.delete(c, row.id());
    return Settlement.settled(
        command,
        new SettleResult(
            row.id(),
            MessageState.DEAD,
            null,
            f.reason(),
            null,
            false,
            row.queue(),
            DeliveryEntries.leasedAt(row)));
  }
}
