package io.redrive.jdbc.owned;

import io.redrive.deadletter.RetryResult;
import io.redrive.message.EnqueueResult;
import io.redrive.store.EnqueueParams;
import io.redrive.store.RetryParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What the queue statements let the owner of queues do to their messages, each inside the caller's
 * transaction. One instance serves one transaction: what it enqueues counts with that transaction's
 * work.
 */
public interface OwnedQueues {

  /**
   * Enqueues messages into owned queues, which refuse every other producer (a queue that is not
   * owned takes them too; the owner checks its queues first).
   *
   * @throws io.redrive.error.QueueNotFoundException when a named queue does not exist
   */
  List<EnqueueResult> enqueue(Connection c, EnqueueParams params) throws SQLException;

  /** Retries dead messages in place, as {@link io.redrive.store.Store#retryDead} does. */
  RetryResult retryDead(Connection c, RetryParams params) throws SQLException;

  /**
   * Deletes messages in any state with their history; a held message's late settle then finds
   * nothing.
   *
   * @return how many of {@code ids} were there
   */
  int delete(Connection c, List<String> ids) throws SQLException;
}
