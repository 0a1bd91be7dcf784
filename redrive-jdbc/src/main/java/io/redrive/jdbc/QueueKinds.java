package io.redrive.jdbc;

import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureReason;
import io.redrive.jdbc.owned.EndedMessage;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;

/**
 * The endings of each kind of queue: the one place the queue statements look at whether a queue is
 * workflow-owned. Everything else they do differently for such a queue goes through its {@link
 * QueueEndings}. Thread-safe.
 */
final class QueueKinds {
  /** A queue nobody owns: its own rules, and nobody to tell. */
  private static final QueueEndings ORDINARY =
      new QueueEndings() {
        @Override
        public void checkProducer(String queue, boolean byOwner) {}

        @Override
        public boolean handlerResultEnds() {
          return false;
        }

        @Override
        public DeliveryRules.FailVerdict onFailure(
            QueuePolicy policy,
            int attempts,
            FailureReason reason,
            Boolean retryable,
            Duration retryAfter,
            Instant now) {
          return DeliveryRules.onFailure(policy, attempts, reason, retryable, retryAfter, now);
        }

        @Override
        public DeadLetter.Mode route(QueuePolicy policy, String stream, FailureReason reason) {
          return DeliveryRules.route(policy, stream);
        }

        @Override
        public void ended(Connection c, EndedMessage message) {}
      };

  private final QueueEndings workflowOwned;
  private final String unownedMessage;

  /**
   * @param workflowOwned how the messages of workflow-owned queues end
   * @param unownedMessage a condition on {@code redrive_messages} that holds for a message of a
   *     queue nobody owns (the owner's own test, cheaper than a join to the queue's row)
   */
  QueueKinds(QueueEndings workflowOwned, String unownedMessage) {
    this.workflowOwned = workflowOwned;
    this.unownedMessage = unownedMessage;
  }

  /**
   * A condition on {@code redrive_messages} that holds for a message of a queue nobody owns: the
   * one-statement complete takes only those, leaving the others to the locked path, where their
   * queue's endings are told.
   */
  String unownedMessage() {
    return unownedMessage;
  }

  QueueEndings endings(Queue queue) {
    return endings(queue.workflowOwned());
  }

  /** The endings of a queue by its {@code redrive_queues.workflow_owned} column. */
  QueueEndings endings(boolean workflowOwned) {
    return workflowOwned ? this.workflowOwned : ORDINARY;
  }
}
