package io.redrive.jdbc.workflow;

import io.redrive.error.ConflictException;
import io.redrive.error.InstanceNotFoundException;
import io.redrive.jdbc.SqlDialect;
import io.redrive.jdbc.owned.OwnedQueues;
import io.redrive.store.RetryParams;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.DeleteTreeResult;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.RaiseEventParams;
import io.redrive.store.workflow.RetryInstanceParams;
import io.redrive.store.workflow.TerminateParams;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What callers other than a turn do to workflow instances (docs/workflows.md): raise an event,
 * request a termination, retry a failed instance, delete a tree. Each reads the instance under a
 * row lock first, so it serializes with a turn's commit that ends the instance.
 */
final class WorkflowOperations {
  private static final String TABLES_BY_INSTANCE =
      "redrive_wf_inbox redrive_wf_history redrive_wf_executions redrive_wf_turns"
          + " redrive_wf_activities";

  private final SqlDialect dialect;
  private final WorkflowNotifications notifications;

  WorkflowOperations(SqlDialect dialect, WorkflowNotifications notifications) {
    this.dialect = dialect;
    this.notifications = notifications;
  }

  /** The instance's status and execution, locked shared or exclusive. */
  private record Held(InstanceRow.Status status, int executionId, String parentId, String rootId) {}

  private Held held(Connection c, String id, boolean shared) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT status, execution_id, parent_id, root_id FROM redrive_wf_instances w"
                + " WHERE id = ? "
                + (shared ? dialect.lockRowsShared("w") : dialect.lockRows("w")))) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new InstanceNotFoundException(id);
        }
        return new Held(
            InstanceRow.Status.valueOf(rs.getString(1)),
            rs.getInt(2),
            rs.getString(3),
            rs.getString(4));
      }
    }
  }

  private static void requireRunning(String id, Held held, String action) {
    if (held.status().terminal()) {
      throw new ConflictException(
          ConflictException.INSTANCE_NOT_RUNNING,
          "workflow instance \""
              + id
              + "\" has ended ("
              + held.status()
              + "): "
              + action
              + " only reaches a pending or running instance");
    }
  }

  boolean raise(Connection c, RaiseEventParams p) throws SQLException {
    // Shared: many raises run side by side; a commit that ends the instance waits for them, and
    // they for it.
    requireRunning(p.instanceId(), held(c, p.instanceId(), true), "an event");
    boolean raised =
        WorkflowRows.insertInbox(
            c,
            new NewInboxRow(
                p.instanceId(),
                null,
                "EVENT_RAISED",
                null,
                p.name(),
                p.data(),
                p.now(),
                p.dedupeKey() == null ? null : "event:" + p.dedupeKey()),
            p.now().toEpochMilli());
    if (raised) {
      notifications.announce(c);
    }
    return raised;
  }

  boolean terminate(Connection c, TerminateParams p) throws SQLException {
    requireRunning(p.instanceId(), held(c, p.instanceId(), false), "a termination");
    boolean requested =
        WorkflowRows.insertInbox(
            c,
            new NewInboxRow(
                p.instanceId(),
                null,
                "TERMINATE",
                null,
                null,
                WorkflowJson.terminateReason(p.reason()),
                p.now(),
                "terminate"),
            p.now().toEpochMilli());
    if (requested) {
      // A backoff no longer holds the instance: the termination runs at the next turn.
      try (PreparedStatement ps =
          c.prepareStatement(
              "UPDATE redrive_wf_instances SET not_before = 0, terminate_reason = ?,"
                  + " updated_at = ? WHERE id = ?")) {
        ps.setString(1, p.reason());
        ps.setLong(2, p.now().toEpochMilli());
        ps.setString(3, p.instanceId());
        ps.executeUpdate();
      }
      notifications.announce(c);
    }
    return requested;
  }

  /**
   * Returns the queues of the activity messages made ready again, for the store to wake their
   * workers; {@code owned} retries the dead activity messages.
   */
  List<String> retry(Connection c, RetryInstanceParams p, OwnedQueues owned) throws SQLException {
    Held held = held(c, p.instanceId(), false);
    if (held.status() != InstanceRow.Status.FAILED) {
      throw new ConflictException(
          ConflictException.NOT_FAILED,
          "workflow instance \""
              + p.instanceId()
              + "\" is "
              + held.status()
              + ": only a failed instance is retried");
    }
    if (p.retried().executionId() != held.executionId()) {
      throw new IllegalArgumentException(
          "retried: the event is for execution "
              + p.retried().executionId()
              + ", the instance is at execution "
              + held.executionId());
    }
    HistoryAppends.append(
        c,
        p.instanceId(),
        held.executionId(),
        HistoryAppends.storedEvents(c, p.instanceId(), held.executionId()),
        List.of(p.retried()));
    long now = p.now().toEpochMilli();
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_instances SET status = 'RUNNING', failure = NULL,"
                + " completed_at = NULL, turn_attempt = 0, not_before = 0, lease_token = NULL,"
                + " leased_by = NULL, leased_at = NULL, lease_expires_at = NULL,"
                + " history_events = history_events + 1, history_bytes = history_bytes + ?,"
                + " updated_at = ? WHERE id = ?")) {
      ps.setLong(1, p.retried().data().getBytes(StandardCharsets.UTF_8).length);
      ps.setLong(2, now);
      ps.setString(3, p.instanceId());
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_executions SET status = 'RUNNING', ended_at = NULL"
                + " WHERE instance_id = ? AND execution_id = ?")) {
      ps.setString(1, p.instanceId());
      ps.setInt(2, held.executionId());
      ps.executeUpdate();
    }
    for (NewInboxRow row : p.inbox()) {
      WorkflowRows.insertInbox(c, row, now);
    }
    List<String> queues = new ArrayList<>();
    if (!p.deadActivities().isEmpty()) {
      requireOwnActivities(c, p.instanceId(), p.deadActivities());
      var result = owned.retryDead(c, new RetryParams(p.deadActivities(), p.by(), p.now()));
      if (!result.skipped().isEmpty() || !result.notFound().isEmpty()) {
        throw new IllegalArgumentException(
            "deadActivities: not DEAD: "
                + result.skipped()
                + (result.notFound().isEmpty() ? "" : ", not found: " + result.notFound()));
      }
      try (PreparedStatement ps =
          c.prepareStatement(
              "UPDATE redrive_wf_activities SET status = 'PENDING', settled_at = NULL"
                  + " WHERE message_id "
                  + dialect.in(p.deadActivities().size()))) {
        dialect.bindIn(ps, 1, p.deadActivities());
        ps.executeUpdate();
      }
      result.queues().values().stream().distinct().forEach(queues::add);
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_turns (instance_id, execution_id, attempt, node, leased_at,"
                + " ended_at, outcome, reason, message) VALUES (?, ?, 0, ?, NULL, ?,"
                + " 'RETRIED', NULL, ?)")) {
      ps.setString(1, p.instanceId());
      ps.setInt(2, held.executionId());
      ps.setString(3, p.by());
      ps.setLong(4, now);
      ps.setString(5, p.note());
      ps.executeUpdate();
    }
    notifications.announce(c);
    return queues;
  }

  /** Every message must be an activity of this instance: a retry never reaches another's. */
  private void requireOwnActivities(Connection c, String instanceId, List<String> ids)
      throws SQLException {
    List<String> own = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT message_id FROM redrive_wf_activities WHERE instance_id = ? AND message_id "
                + dialect.in(ids.size()))) {
      ps.setString(1, instanceId);
      dialect.bindIn(ps, 2, ids);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          own.add(rs.getString(1));
        }
      }
    }
    List<String> foreign = ids.stream().filter(id -> !own.contains(id)).toList();
    if (!foreign.isEmpty()) {
      throw new IllegalArgumentException(
          "deadActivities: not activities of \"" + instanceId + "\": " + foreign);
    }
  }

  /** Deletes the tree of root {@code id}; {@code queues} deletes its activity messages. */
  DeleteTreeResult deleteTree(Connection c, String id, boolean force, OwnedQueues queues)
      throws SQLException {
    Held held = held(c, id, false);
    if (held.parentId() != null) {
      throw new ConflictException(
          ConflictException.NOT_ROOT,
          "workflow instance \""
              + id
              + "\" is a child in the tree of \""
              + held.rootId()
              + "\": delete that root instead");
    }
    List<String> tree = new ArrayList<>();
    String running = null;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, status FROM redrive_wf_instances w WHERE root_id = ? ORDER BY id "
                + dialect.lockRows("w"))) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          tree.add(rs.getString(1));
          if (running == null && !InstanceRow.Status.valueOf(rs.getString(2)).terminal()) {
            running = rs.getString(1);
          }
        }
      }
    }
    if (running != null && !force) {
      throw new ConflictException(
          ConflictException.TREE_RUNNING,
          "workflow instance \""
              + running
              + "\" of the tree of \""
              + id
              + "\" has not ended: end it first, or force the delete");
    }
    List<String> messageIds = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT a.message_id FROM redrive_wf_activities a JOIN redrive_wf_instances i"
                + " ON i.id = a.instance_id WHERE i.root_id = ?")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          messageIds.add(rs.getString(1));
        }
      }
    }
    // Any state: a held message's late settle then finds nothing, and reports nothing.
    int deletedMessages = queues.delete(c, messageIds);
    for (String table : TABLES_BY_INSTANCE.split(" ")) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "DELETE FROM "
                  + table
                  + " WHERE instance_id IN (SELECT id FROM redrive_wf_instances WHERE root_id = ?)")) {
        ps.setString(1, id);
        ps.executeUpdate();
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_wf_instances WHERE root_id = ?")) {
      ps.setString(1, id);
      ps.executeUpdate();
    }
    return new DeleteTreeResult(tree.size(), deletedMessages);
  }
}
