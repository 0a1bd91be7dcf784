package io.redrive.jdbc;

import io.redrive.deadletter.RetryResult;
import io.redrive.jdbc.owned.OwnedQueues;
import io.redrive.message.EnqueueResult;
import io.redrive.store.EnqueueParams;
import io.redrive.store.RetryParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** {@link OwnedQueues} for one transaction, whose {@link Tally} counts what it enqueues. */
final class OwnedQueueMessages implements OwnedQueues {
  private final Producing producing;
  private final Operating operating;
  private final MessageRows messages;
  private final HistoryRows history;
  private final Tally tally;

  OwnedQueueMessages(
      Producing producing,
      Operating operating,
      MessageRows messages,
      HistoryRows history,
      Tally tally) {
    this.producing = producing;
    this.operating = operating;
    this.messages = messages;
    this.history = history;
    this.tally = tally;
  }

  @Override
  public List<EnqueueResult> enqueue(Connection c, EnqueueParams params) throws SQLException {
    return producing.enqueueByOwner(c, params, tally);
  }

  @Override
  public RetryResult retryDead(Connection c, RetryParams params) throws SQLException {
    return operating.retry(c, params);
  }

  @Override
  public int delete(Connection c, List<String> ids) throws SQLException {
    for (String id : ids) {
      history.delete(c, id);
    }
    return messages.deleteEach(c, ids);
  }
}
