package io.redrive.jdbc.owned;

import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureReason;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * How the messages of one kind of queue end, where the kind changes it: the queue statements hold
 * one per queue kind (a no-op for ordinary queues, the workflow runtime's for workflow-owned ones)
 * and call it at each point where an end differs — a producer enqueueing, a handler's result, a
 * death without one — inside the transaction that ends the message, so what it tells commits or
 * rolls back with that end. Implementations are stateless and thread-safe.
 */
public interface QueueEndings {

  /**
   * Refuses an enqueue into {@code queue} by someone other than its owner.
   *
   * @param byOwner whether the queue's owner enqueues
   * @throws IllegalArgumentException naming the queue when this kind refuses the producer
   */
  void checkProducer(String queue, boolean byOwner);

  /**
   * Whether a handler's result ends the message: a complete keeps its result and a fail ends it
   * whatever its attempts (the queue never retries it); either way it is deleted with its story and
   * {@link #ended} tells of it. Otherwise the queue's own rules apply: a complete keeps no result,
   * a fail is retried or dies by the queue's policy.
   */
  boolean handlerResultEnds();

  /** The verdict on a handler's failure of a message at {@code attempts} (counted at lease). */
  DeliveryRules.FailVerdict onFailure(
      QueuePolicy policy,
      int attempts,
      FailureReason reason,
      Boolean retryable,
      Duration retryAfter,
      Instant now);

  /**
   * Where a message that dies for {@code reason} goes: kept in place, discarded or moved to the
   * dead-letter queue.
   *
   * @throws IllegalStateException when this kind never lets a message die for {@code reason}
   */
  DeadLetter.Mode route(QueuePolicy policy, String stream, FailureReason reason);

  /**
   * Tells of {@code message}'s end, after the queue wrote it (a no-op for a kind with nobody to
   * tell).
   *
   * @throws IllegalArgumentException when the end carries a result that is refused (nothing of the
   *     transaction then commits)
   */
  void ended(Connection c, EndedMessage message) throws SQLException;
}
