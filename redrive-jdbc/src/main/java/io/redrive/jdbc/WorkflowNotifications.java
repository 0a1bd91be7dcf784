package io.redrive.jdbc;

import io.redrive.failure.FailureRecord;
import io.redrive.message.HistoryEntry;
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
 * Tells a workflow instance that one of its activity messages ended (docs/workflows.md), inside the
 * transaction that ended it: the activity's link row records the end and one ACTIVITY_RESULT row
 * joins the instance's inbox. A message whose link is no longer pending (its instance ended and
 * cancelled it) or that has none (enqueued into the queue by hand) reports nothing.
 */
final class WorkflowNotifications {
  private static final Logger LOG = LoggerFactory.getLogger(WorkflowNotifications.class);

  /**
   * The ready-signal key of workflow turns; never a queue's name (those cannot hold {@code @}), so
   * it shares the queues' signals and, on PostgreSQL, their NOTIFY channel.
   */
  static final String SIGNAL = "@workflows";

  private final SqlDialect dialect;
  private final ReadySignals signals;

  WorkflowNotifications(SqlDialect dialect, ReadySignals signals) {
    this.dialect = dialect;
    this.signals = signals;
  }

  /**
   * Announces, inside the transaction that wrote them, inbox rows that may make a turn due: on
   * PostgreSQL a NOTIFY that every node (this one too) receives at the commit, never on a rollback;
   * and at once to this node's pollers, whose next lease waits for this transaction's commit on
   * SQLite (one writer) and at worst finds nothing yet on PostgreSQL.
   */
  void announce(Connection c) throws SQLException {
    dialect.afterMessagesReady(c, SIGNAL);
    signals.signal(SIGNAL);
  }

  /** How an activity message ended, as its link row and result record it. */
  enum Ending {
    COMPLETED("COMPLETED"),
    FAILED("FAILED"),
    POISONED("POISONED"),
    EXPIRED("POISONED");

    final String linkStatus;

    Ending(String linkStatus) {
      this.linkStatus = linkStatus;
    }
  }

  /**
   * Reports the end of {@code row}'s message to its instance.
   *
   * @param result the handler's result JSON (completed only), or null
   * @param failure the failure (any other ending), or null
   * @param retryAfter the delay the handler asked for before a retry, or null
   * @param attempts the message's attempt story, this end included
   * @return whether an instance was told
   * @throws IllegalArgumentException when {@code result} is not valid JSON
   */
  boolean activityEnded(
      Connection c,
      MessageRow row,
      Ending ending,
      String result,
      FailureRecord failure,
      Duration retryAfter,
      List<HistoryEntry> attempts,
      Instant now)
      throws SQLException {
    // Built first: a result that is not JSON is refused before anything is written.
    String data = Json.activityResult(row, ending.name(), result, failure, retryAfter, attempts);
    String instanceId;
    int executionId;
    long seq;
    String name;
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_activities SET status = ?, settled_at = ?"
                + " WHERE message_id = ? AND status = 'PENDING'"
                + " RETURNING instance_id, execution_id, seq, name")) {
      ps.setString(1, ending.linkStatus);
      ps.setLong(2, now.toEpochMilli());
      ps.setString(3, row.id());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          LOG.debug(
              "activity message {} of queue {} ended {} with no pending link: nobody to tell",
              row.id(),
              row.queue(),
              ending);
          return false;
        }
        instanceId = rs.getString(1);
        executionId = rs.getInt(2);
        seq = rs.getLong(3);
        name = rs.getString(4);
      }
    }
    WorkflowCommits.insertInbox(
        c,
        new io.redrive.store.CommitTurnParams.NewInboxRow(
            instanceId,
            executionId,
            "ACTIVITY_RESULT",
            seq,
            name,
            data,
            now,
            "activity:" + row.id() + ":" + row.attempts()),
        now.toEpochMilli());
    announce(c);
    return true;
  }
}
