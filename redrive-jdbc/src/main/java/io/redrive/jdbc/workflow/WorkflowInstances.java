package io.redrive.jdbc.workflow;

import io.redrive.error.InstanceExistsException;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.InstancePage;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.ListInstancesParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Workflow instances (docs/workflows.md): starting one with its START inbox row, and reading it.
 * The same SQL serves both dialects ({@code ON CONFLICT DO NOTHING} is in SQLite too).
 */
final class WorkflowInstances {
  private final WorkflowNotifications notifications;

  WorkflowInstances(WorkflowNotifications notifications) {
    this.notifications = notifications;
  }

  /** The columns {@link #map} reads, in its order. */
  static final String COLUMNS =
      "id, name, version, requested_version, status, execution_id, parent_id, root_id, input,"
          + " output, failure, custom_status, created_at, updated_at, completed_at, not_before,"
          + " turn_attempt, leased_by, lease_expires_at, history_events, history_bytes,"
          + " parent_execution, parent_seq, trace_context";

  /**
   * Inserts the instance unless its id is taken, then its START row. The start delay is the
   * instance's {@code not_before}, not the row's visibility, so that nothing of the instance (an
   * event raised meanwhile included) runs before it.
   */
  StartInstanceResult start(Connection c, StartInstanceParams p) throws SQLException {
    return start(c, p, null);
  }

  /**
   * As {@link #start(Connection, StartInstanceParams)}, as the child of {@code parent} when it is
   * not null.
   */
  StartInstanceResult start(Connection c, StartInstanceParams p, Parent parent)
      throws SQLException {
    long now = p.now().toEpochMilli();
    int inserted;
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_instances (id, name, requested_version, status, execution_id,"
                + " parent_id, parent_execution, parent_seq, root_id, input, created_at,"
                + " updated_at, not_before, turn_attempt, history_events, history_bytes,"
                + " trace_context) VALUES (?, ?, ?, 'PENDING', 1, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)"
                + " ON CONFLICT (id) DO NOTHING")) {
      ps.setString(1, p.instanceId());
      ps.setString(2, p.name());
      ps.setString(3, p.requestedVersion());
      if (parent == null) {
        ps.setNull(4, Types.VARCHAR);
        ps.setNull(5, Types.INTEGER);
        ps.setNull(6, Types.BIGINT);
        ps.setString(7, p.instanceId());
      } else {
        ps.setString(4, parent.id());
        ps.setInt(5, parent.executionId());
        ps.setLong(6, parent.seq());
        ps.setString(7, parent.rootId());
      }
      ps.setString(8, p.input());
      ps.setLong(9, now);
      ps.setLong(10, now);
      ps.setLong(11, p.startAt() == null ? 0 : p.startAt().toEpochMilli());
      ps.setString(12, p.traceContext());
      inserted = ps.executeUpdate();
    }
    if (inserted == 0) {
      if (p.ifExists() == StartInstanceParams.IfExists.FAIL) {
        throw new InstanceExistsException(p.instanceId());
      }
      return new StartInstanceResult(p.instanceId(), false);
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_inbox (instance_id, execution_id, kind, name, data,"
                + " visible_at, enqueued_at) VALUES (?, NULL, 'START', ?, ?, ?, ?)")) {
      ps.setString(1, p.instanceId());
      ps.setString(2, p.name());
      if (p.input() == null) {
        ps.setNull(3, Types.VARCHAR);
      } else {
        ps.setString(3, p.input());
      }
      ps.setLong(4, now);
      ps.setLong(5, now);
      ps.executeUpdate();
    }
    if (p.startAt() == null || !p.startAt().isAfter(p.now())) {
      notifications.announce(c);
    }
    return new StartInstanceResult(p.instanceId(), true);
  }

  Optional<InstanceRow> find(Connection c, String id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT " + COLUMNS + " FROM redrive_wf_instances WHERE id = ?")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(map(rs)) : Optional.empty();
      }
    }
  }

  InstancePage list(Connection c, ListInstancesParams p) throws SQLException {
    StringBuilder sql =
        new StringBuilder("SELECT " + COLUMNS + ", seq FROM redrive_wf_instances WHERE 1 = 1");
    List<String> statuses = p.statuses().stream().map(Enum::name).sorted().toList();
    if (!statuses.isEmpty()) {
      sql.append(" AND status IN (")
          .append(String.join(", ", java.util.Collections.nCopies(statuses.size(), "?")))
          .append(')');
    }
    if (p.name() != null) {
      sql.append(" AND name = ?");
    }
    if (p.rootId() != null) {
      sql.append(" AND root_id = ?");
    }
    if (p.version() != null) {
      sql.append(" AND version = ?");
    }
    if (p.parentId() != null) {
      sql.append(" AND parent_id = ?");
    }
    if (p.rootsOnly()) {
      sql.append(" AND parent_id IS NULL");
    }
    if (p.createdSince() != null) {
      sql.append(" AND created_at >= ?");
    }
    if (p.createdBefore() != null) {
      sql.append(" AND created_at < ?");
    }
    if (p.cursor() != null) {
      sql.append(" AND seq < ?");
    }
    sql.append(" ORDER BY seq DESC LIMIT ?");
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      int i = 1;
      for (String s : statuses) {
        ps.setString(i++, s);
      }
      if (p.name() != null) {
        ps.setString(i++, p.name());
      }
      if (p.rootId() != null) {
        ps.setString(i++, p.rootId());
      }
      if (p.version() != null) {
        ps.setString(i++, p.version());
      }
      if (p.parentId() != null) {
        ps.setString(i++, p.parentId());
      }
      if (p.createdSince() != null) {
        ps.setLong(i++, p.createdSince().toEpochMilli());
      }
      if (p.createdBefore() != null) {
        ps.setLong(i++, p.createdBefore().toEpochMilli());
      }
      if (p.cursor() != null) {
        ps.setLong(i++, Long.parseLong(p.cursor()));
      }
      ps.setInt(i, p.limit() + 1);
      // One row past the page says whether another page follows.
      List<InstanceRow> rows = new ArrayList<>();
      List<Long> seqs = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(map(rs));
          seqs.add(rs.getLong(25));
        }
      }
      if (rows.size() <= p.limit()) {
        return new InstancePage(rows, null);
      }
      return new InstancePage(rows.subList(0, p.limit()), Long.toString(seqs.get(p.limit() - 1)));
    }
  }

  java.util.Map<InstanceRow.Status, Long> countByStatus(Connection c) throws SQLException {
    java.util.Map<InstanceRow.Status, Long> counts =
        new java.util.EnumMap<>(InstanceRow.Status.class);
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT status, COUNT(*) FROM redrive_wf_instances GROUP BY status");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        counts.put(InstanceRow.Status.valueOf(rs.getString(1)), rs.getLong(2));
      }
    }
    return counts;
  }

  List<ExecutionRow> executions(Connection c, String id) throws SQLException {
    List<ExecutionRow> rows = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT execution_id, name, version, status, input, output, started_at, ended_at,"
                + " first_seq FROM redrive_wf_executions WHERE instance_id = ?"
                + " ORDER BY execution_id")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(
              new ExecutionRow(
                  rs.getInt(1),
                  rs.getString(2),
                  rs.getString(3),
                  ExecutionRow.Status.valueOf(rs.getString(4)),
                  rs.getString(5),
                  rs.getString(6),
                  Instant.ofEpochMilli(rs.getLong(7)),
                  instant(rs, 8),
                  rs.getLong(9)));
        }
      }
    }
    return rows;
  }

  /** The instance of the current row of a result selecting {@link #COLUMNS}. */
  static InstanceRow map(ResultSet rs) throws SQLException {
    long notBefore = rs.getLong(16);
    return new InstanceRow(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        InstanceRow.Status.valueOf(rs.getString(5)),
        rs.getInt(6),
        rs.getString(7),
        rs.getString(8),
        rs.getString(9),
        rs.getString(10),
        rs.getString(11),
        rs.getString(12),
        Instant.ofEpochMilli(rs.getLong(13)),
        Instant.ofEpochMilli(rs.getLong(14)),
        instant(rs, 15),
        notBefore == 0 ? null : Instant.ofEpochMilli(notBefore),
        rs.getInt(17),
        rs.getString(18),
        instant(rs, 19),
        rs.getInt(20),
        rs.getLong(21),
        integer(rs, 22),
        longOrNull(rs, 23),
        rs.getString(24));
  }

  /** The instance whose turn starts a child, and the command that did. */
  record Parent(String id, int executionId, long seq, String rootId) {}

  private static Integer integer(ResultSet rs, int column) throws SQLException {
    int v = rs.getInt(column);
    return rs.wasNull() ? null : v;
  }

  private static Long longOrNull(ResultSet rs, int column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : Instant.ofEpochMilli(v);
  }
}
