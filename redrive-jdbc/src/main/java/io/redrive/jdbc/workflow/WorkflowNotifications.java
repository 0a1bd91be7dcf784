package io.redrive.jdbc.workflow;

import io.redrive.jdbc.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;

/** Announces inbox rows that may make a workflow turn due. */
final class WorkflowNotifications {
  /**
   * The ready-signal key of workflow turns; never a queue's name (those cannot hold {@code @}), so
   * it shares the queues' signals and, on PostgreSQL, their NOTIFY channel.
   */
  static final String SIGNAL = "@workflows";

  private final SqlDialect dialect;
  private final Runnable signal;

  /**
   * @param signal tells this node's pollers that a turn may be due (the store's ready signal of
   *     {@link #SIGNAL})
   */
  WorkflowNotifications(SqlDialect dialect, Runnable signal) {
    this.dialect = dialect;
    this.signal = signal;
  }

  /**
   * Announces, inside the transaction that wrote them, inbox rows that may make a turn due: on
   * PostgreSQL a NOTIFY that every node (this one too) receives at the commit, never on a rollback;
   * and at once to this node's pollers, whose next lease waits for this transaction's commit on
   * SQLite (one writer) and at worst finds nothing yet on PostgreSQL.
   */
  void announce(Connection c) throws SQLException {
    dialect.afterMessagesReady(c, SIGNAL);
    signal.run();
  }
}
