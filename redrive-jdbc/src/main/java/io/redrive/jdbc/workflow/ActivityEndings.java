package io.redrive.jdbc.workflow;

import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.jdbc.owned.EndedMessage;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.message.HistoryEntry;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the activity messages of workflow-owned queues end (docs/engine.md, "Workflow-owned queues"):
 * only the workflow runtime enqueues them; a handler's result (complete, fail) ends the message,
 * never retried by the queue; a message that dies without one (poison at lease, a passed deadline)
 * stays DEAD in place whatever the queue's dead-letter setting. Each end is told to the workflow
 * instance inside the transaction that ended it: the activity's link row records the end and one
 * ACTIVITY_RESULT row joins the instance's inbox. A message whose link is no longer pending (its
 * instance ended and cancelled it) or that has none reports nothing.
 */
final class ActivityEndings implements QueueEndings {
  private static final Logger LOG = LoggerFactory.getLogger(ActivityEndings.class);

  private final WorkflowNotifications notifications;

  ActivityEndings(WorkflowNotifications notifications) {
    this.notifications = notifications;
  }

  @Override
  public void checkProducer(String queue, boolean byOwner) {
    if (!byOwner) {
      throw new IllegalArgumentException(
          "queue \""
              + queue
              + "\" is workflow-owned: only the workflow runtime enqueues into it (its"
              + " activities report their ends to their instances)");
    }
  }

  @Override
  public boolean handlerResultEnds() {
    return true;
  }

  /** Never a retry by the queue; the verdict records whether the failure itself was retryable. */
  @Override
  public DeliveryRules.FailVerdict onFailure(
      QueuePolicy policy,
      int attempts,
      FailureReason reason,
      Boolean retryable,
      Duration retryAfter,
      Instant now) {
    return DeliveryRules.onActivityFailure(reason, retryable);
  }

  /** In place, always: an operator reads the message's story and retries it there. */
  @Override
  public DeadLetter.Mode route(QueuePolicy policy, String stream, FailureReason reason) {
    if (DeliveryRules.onActivityDeath(reason) != DeliveryRules.ActivityDeath.KEEP_DEAD) {
      throw new IllegalStateException(
          "an activity message dying for " + reason + " ends with its result, not here");
    }
    return DeadLetter.Mode.KEEP;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The row carries the failure of the story's last entry (none for a completion).
   *
   * @throws IllegalArgumentException when the message's result is not valid JSON
   */
  @Override
  public void ended(Connection c, EndedMessage message) throws SQLException {
    List<HistoryEntry> story = message.story().read();
    FailureRecord failure =
        message.ending() == EndedMessage.Ending.COMPLETED || story.isEmpty()
            ? null
            : story.get(story.size() - 1).failure();
    // Built first: a result that is not JSON is refused before anything is written.
    String data = WorkflowJson.activityResult(message, failure, story);
    String instanceId;
    int executionId;
    long seq;
    String name;
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_activities SET status = ?, settled_at = ?"
                + " WHERE message_id = ? AND status = 'PENDING'"
                + " RETURNING instance_id, execution_id, seq, name")) {
      ps.setString(1, linkStatus(message.ending()));
      ps.setLong(2, message.at().toEpochMilli());
      ps.setString(3, message.id());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          LOG.debug(
              "activity message {} of queue {} ended {} with no pending link: nobody to tell",
              message.id(),
              message.queue(),
              message.ending());
          return;
        }
        instanceId = rs.getString(1);
        executionId = rs.getInt(2);
        seq = rs.getLong(3);
        name = rs.getString(4);
      }
    }
    WorkflowRows.insertInbox(
        c,
        new NewInboxRow(
            instanceId,
            executionId,
            "ACTIVITY_RESULT",
            seq,
            name,
            data,
            message.at(),
            "activity:" + message.id() + ":" + message.attempts()),
        message.at().toEpochMilli());
    notifications.announce(c);
  }

  /** The link row's status for an ending: an expiry is a poisoning there. */
  private static String linkStatus(EndedMessage.Ending ending) {
    return switch (ending) {
      case COMPLETED -> "COMPLETED";
      case FAILED -> "FAILED";
      case POISONED, EXPIRED -> "POISONED";
    };
  }
}
