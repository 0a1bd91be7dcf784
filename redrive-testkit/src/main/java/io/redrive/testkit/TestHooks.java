package io.redrive.testkit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Deterministic stand-ins for crashes in tests (docs/workflows.md, "Tests"): they set the counters
 * that crashes would have raised, straight in the database, so poison paths run without killing
 * anything. Each has a crash-based twin in the child-JVM suites. Test use only.
 */
public final class TestHooks {
  private TestHooks() {}

  /** Sets an instance's turn counter, as if {@code attempt} tries had ended without a commit. */
  public static void setTurnAttempt(Connection c, String instanceId, int attempt) {
    update(c, "UPDATE redrive_wf_instances SET turn_attempt = ? WHERE id = ?", attempt, instanceId);
  }

  /** Sets a message's delivery count, as if {@code attempts} deliveries had been lost. */
  public static void setMessageAttempts(Connection c, String messageId, int attempts) {
    update(c, "UPDATE redrive_messages SET attempts = ? WHERE id = ?", attempts, messageId);
  }

  /** Overwrites one stored history event's data with text that is not JSON (an unreadable row). */
  public static void corruptHistoryEvent(
      Connection c, String instanceId, int executionId, int eventId) {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_history SET data = ? WHERE instance_id = ? AND execution_id = ?"
                + " AND event_id = ?")) {
      ps.setString(1, "{not json");
      ps.setString(2, instanceId);
      ps.setInt(3, executionId);
      ps.setInt(4, eventId);
      require(
          ps.executeUpdate(), "history event " + instanceId + "/" + executionId + "/" + eventId);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void update(Connection c, String sql, int value, String id) {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, value);
      ps.setString(2, id);
      require(ps.executeUpdate(), id);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void require(int updated, String what) {
    if (updated != 1) {
      throw new IllegalStateException("test hook: " + what + " not found");
    }
  }
}
