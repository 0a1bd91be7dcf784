package io.redrive.jdbc.workflow;

import io.redrive.error.TurnLostException;
import io.redrive.jdbc.SqlDialect;
import io.redrive.jdbc.owned.OwnedQueues;
import io.redrive.store.EnqueueParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.ActivityStart;
import io.redrive.store.workflow.CommitTurnParams.ChildStart;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.StartInstanceParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Commits a workflow turn (docs/workflows.md): everything the turn decided, in the caller's one
 * transaction. The first statement moves the instance on only while the turn token holds a live
 * lease, so a turn whose lease ran out — taken over by another node or not — writes nothing at all:
 * a turn that outlived its lease is treated as the hang it looks like, and its try counts.
 */
final class WorkflowCommits {
  private final SqlDialect dialect;
  private final WorkflowInstances instances;
  private final WorkflowNotifications notifications;

  WorkflowCommits(
      SqlDialect dialect, WorkflowInstances instances, WorkflowNotifications notifications) {
    this.dialect = dialect;
    this.instances = instances;
    this.notifications = notifications;
  }

  /**
   * Returns the queues that got activity messages, for the store to wake their workers; {@code
   * queues} enqueues them and cancels the messages of an instance that ended.
   */
  Set<String> commit(Connection c, CommitTurnParams p, OwnedQueues queues) throws SQLException {
    Set<String> activityQueues = requireWorkflowOwned(c, p.activities());
    int stored = moveInstance(c, p);
    // A gap or an overlap means the turn replayed another history than the one stored: refused.
    HistoryAppends.append(c, p.instanceId(), p.instance().executionId(), stored, p.history());
    writeExecutions(c, p);
    if (p.instance().status().terminal()) {
      endWaiting(c, p, queues); // the whole inbox: the batch's rows and keyed ones too
    } else {
      deleteInbox(c, p.instanceId(), p.inboxDeletes());
      deleteInboxByKey(c, p.instanceId(), p.inboxDeleteKeys());
    }
    for (NewInboxRow row : p.inboxInserts()) {
      WorkflowRows.insertInbox(c, row, p.now().toEpochMilli());
    }
    startChildren(c, p);
    scheduleActivities(c, p, queues);
    // Rows that arrived during the turn, a CONTINUE row, a parent's result, a child's START: the
    // next turn may be due at once. A checkpoint keeps its lease, so only rows for others count.
    if (!p.checkpoint() || !p.children().isEmpty() || writesForOthers(p)) {
      notifications.announce(c);
    }
    return activityQueues;
  }

  private static boolean writesForOthers(CommitTurnParams p) {
    for (NewInboxRow row : p.inboxInserts()) {
      if (!row.instanceId().equals(p.instanceId())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The instance row, guarded by the token; the counters restart with a new execution, and the
   * instance sticks to the commit's {@code stickyNode} (none once ended). A commit releases the
   * lease; a checkpoint keeps it (pushed to now + {@code keepLease}) with its try still counted.
   * Returns the events the execution held before this commit (its counter, kept with every append).
   */
  private int moveInstance(Connection c, CommitTurnParams p) throws SQLException {
    CommitTurnParams.InstanceUpdate u = p.instance();
    long now = p.now().toEpochMilli();
    int events = p.history().size();
    long bytes = p.historyBytes();
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_instances SET status = ?, version = ?, input = ?, output = ?,"
                + " failure = ?, custom_status = ?, updated_at = ?, completed_at = ?,"
                + " history_events = CASE WHEN execution_id = ? THEN history_events + ? ELSE ?"
                + " END, history_bytes = CASE WHEN execution_id = ? THEN history_bytes + ? ELSE ?"
                + " END, execution_id = ?, not_before = 0, sticky_node = ?, "
                + (p.checkpoint()
                    ? "turn_attempt = 1, lease_expires_at = ?,"
                    : "turn_attempt = 0, lease_token = NULL, leased_by = NULL, leased_at = NULL,"
                        + " lease_expires_at = NULL,")
                + " turn_rows_seen = COALESCE((SELECT MAX(t.id) FROM redrive_wf_turns t"
                + " WHERE t.instance_id = ?), 0)"
                + " WHERE id = ? AND lease_token = ? AND lease_expires_at > ?"
                + " RETURNING history_events")) {
      int i = 1;
      ps.setString(i++, u.status().name());
      ps.setString(i++, u.version());
      ps.setString(i++, u.input());
      ps.setString(i++, u.output());
      ps.setString(i++, u.failure());
      ps.setString(i++, u.customStatus());
      ps.setLong(i++, now);
      if (u.status().terminal()) {
        ps.setLong(i++, now);
      } else {
        ps.setNull(i++, Types.BIGINT);
      }
      ps.setInt(i++, u.executionId());
      ps.setInt(i++, events);
      ps.setInt(i++, events);
      ps.setInt(i++, u.executionId());
      ps.setLong(i++, bytes);
      ps.setLong(i++, bytes);
      ps.setInt(i++, u.executionId());
      // An ended instance has no next turn to keep anywhere.
      ps.setString(i++, u.status().terminal() ? null : p.stickyNode());
      if (p.checkpoint()) {
        ps.setLong(i++, p.now().plus(p.keepLease()).toEpochMilli());
      }
      ps.setString(i++, p.instanceId());
      ps.setString(i++, p.instanceId());
      ps.setString(i++, p.token());
      ps.setLong(i, now);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new TurnLostException(p.instanceId());
        }
        return rs.getInt(1) - events;
      }
    }
  }

  /** The root of the instance's tree, which its children share (read only when it has some). */
  private static String rootOf(Connection c, String instanceId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT root_id FROM redrive_wf_instances WHERE id = ?")) {
      ps.setString(1, instanceId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }

  private static void writeExecutions(Connection c, CommitTurnParams p) throws SQLException {
    if (p.executions().isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_executions (instance_id, execution_id, name, version, status,"
                + " input, output, started_at, ended_at, first_seq)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (instance_id, execution_id) DO UPDATE SET"
                + " version = excluded.version, status = excluded.status,"
                + " output = excluded.output, ended_at = excluded.ended_at")) {
      for (ExecutionRow e : p.executions()) {
        ps.setString(1, p.instanceId());
        ps.setInt(2, e.executionId());
        ps.setString(3, e.name());
        ps.setString(4, e.version());
        ps.setString(5, e.status().name());
        ps.setString(6, e.input());
        ps.setString(7, e.output());
        ps.setLong(8, e.startedAt().toEpochMilli());
        Sql.setLong(ps, 9, e.endedAt() == null ? null : e.endedAt().toEpochMilli());
        ps.setLong(10, e.firstSeq());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void deleteInbox(Connection c, String instanceId, List<Long> seqs)
      throws SQLException {
    if (seqs.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_wf_inbox WHERE instance_id = ? AND seq = ?")) {
      for (long seq : seqs) {
        ps.setString(1, instanceId);
        ps.setLong(2, seq);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void deleteInboxByKey(Connection c, String instanceId, List<String> keys)
      throws SQLException {
    if (keys.isEmpty()) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_wf_inbox WHERE instance_id = ? AND dedupe_key = ?")) {
      for (String key : keys) {
        ps.setString(1, instanceId);
        ps.setString(2, key);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * An instance that ended waits for nothing: its inbox goes (timers included), and its activity
   * messages that no worker has taken yet are cancelled. Messages a worker holds run to their end;
   * their results arrive late and the next turn drops them.
   */
  private void endWaiting(Connection c, CommitTurnParams p, OwnedQueues queues)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_wf_inbox WHERE instance_id = ?")) {
      ps.setString(1, p.instanceId());
      ps.executeUpdate();
    }
    List<String> waiting = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT m.id FROM redrive_messages m JOIN redrive_wf_activities a"
                + " ON a.message_id = m.id WHERE a.instance_id = ? AND a.status = 'PENDING'"
                + " AND m.state = 'READY' "
                + dialect.lockRows("m"))) {
      ps.setString(1, p.instanceId());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          waiting.add(rs.getString(1));
        }
      }
    }
    if (waiting.isEmpty()) {
      return;
    }
    queues.delete(c, waiting);
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_activities SET status = 'CANCELLED', settled_at = ?"
                + " WHERE message_id "
                + dialect.in(waiting.size()))) {
      ps.setLong(1, p.now().toEpochMilli());
      dialect.bindIn(ps, 2, waiting);
      ps.executeUpdate();
    }
  }

  private void startChildren(Connection c, CommitTurnParams p) throws SQLException {
    if (p.children().isEmpty()) {
      return;
    }
    String rootId = rootOf(c, p.instanceId());
    for (ChildStart child : p.children()) {
      StartInstanceParams start =
          new StartInstanceParams(
              child.instanceId(),
              child.name(),
              child.requestedVersion(),
              child.input(),
              null,
              StartInstanceParams.IfExists.RETURN_EXISTING,
              p.now(),
              child.traceContext());
      WorkflowInstances.Parent parent =
          new WorkflowInstances.Parent(
              p.instanceId(), p.instance().executionId(), child.parentSeq(), rootId);
      boolean created = instances.start(c, start, parent).created();
      if (!created && child.conflictResult() != null) {
        WorkflowRows.insertInbox(
            c,
            new NewInboxRow(
                p.instanceId(),
                p.instance().executionId(),
                "CHILD_RESULT",
                child.parentSeq(),
                child.name(),
                child.conflictResult(),
                p.now(),
                null),
            p.now().toEpochMilli());
      }
    }
  }

  private void scheduleActivities(Connection c, CommitTurnParams p, OwnedQueues queues)
      throws SQLException {
    if (p.activities().isEmpty()) {
      return;
    }
    List<EnqueueParams.Entry> entries = new ArrayList<>(p.activities().size());
    for (ActivityStart a : p.activities()) {
      entries.add(a.message());
    }
    queues.enqueue(c, new EnqueueParams(entries, p.now()));
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_activities (instance_id, execution_id, seq, message_id,"
                + " queue, name, retry_number, status, scheduled_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, 'PENDING', ?)"
                + " ON CONFLICT (instance_id, execution_id, seq) DO UPDATE SET"
                + " message_id = excluded.message_id, queue = excluded.queue,"
                + " retry_number = excluded.retry_number, status = 'PENDING',"
                + " scheduled_at = excluded.scheduled_at, settled_at = NULL")) {
      for (ActivityStart a : p.activities()) {
        ps.setString(1, p.instanceId());
        ps.setInt(2, p.instance().executionId());
        ps.setLong(3, a.seq());
        ps.setString(4, a.message().id());
        ps.setString(5, a.message().message().queue());
        ps.setString(6, a.name());
        ps.setInt(7, a.retryNumber());
        ps.setLong(8, p.now().toEpochMilli());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * Activity messages go only into workflow-owned queues: only there does every end of a message
   * report back to its instance. Checked before anything is written.
   */
  private static Set<String> requireWorkflowOwned(Connection c, List<ActivityStart> activities)
      throws SQLException {
    Set<String> queues = new LinkedHashSet<>();
    for (ActivityStart a : activities) {
      queues.add(a.message().message().queue());
    }
    for (String queue : queues) {
      try (PreparedStatement ps =
          c.prepareStatement("SELECT workflow_owned FROM redrive_queues WHERE name = ?")) {
        ps.setString(1, queue);
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            throw new IllegalArgumentException("activity queue \"" + queue + "\" does not exist");
          }
          if (!rs.getBoolean(1)) {
            throw new IllegalArgumentException(
                "activity queue \""
                    + queue
                    + "\" is not workflow-owned: activities go only into queues the workflow"
                    + " runtime created");
          }
        }
      }
    }
    return queues;
  }
}
