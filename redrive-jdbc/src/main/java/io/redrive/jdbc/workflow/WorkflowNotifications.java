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

  /** Set by {@link #announce} on the thread whose transaction wrote the rows. */
  private static final ThreadLocal<Boolean> ANNOUNCED = new ThreadLocal<>();

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
   * Marks, inside the transaction that wrote them, inbox rows that may make a turn due. The
   * announcement waits for the transaction's end ({@link #takeAnnounced}): after a store-run
   * transaction commits, the store wakes this node's pollers and, on PostgreSQL, tells other nodes
   * with a NOTIFY coalesced with other commits' and sent outside any transaction (a NOTIFY inside
   * one holds a database-wide lock from its pre-commit to its end, which serialises commits); in a
   * caller's transaction it is {@link #announceInCallerTransaction}. Nothing is told on a rollback.
   */
  void announce(Connection c) {
    ANNOUNCED.set(Boolean.TRUE);
  }

  /** Whether this thread's statements announced turns since the last call; clears the mark. */
  static boolean takeAnnounced() {
    if (ANNOUNCED.get() == null) {
      return false;
    }
    ANNOUNCED.remove();
    return true;
  }

  /**
   * Announces inside a caller's transaction: a NOTIFY every node (this one too) receives at its
   * commit, never on a rollback; and at once to this node's pollers, whose next lease at worst
   * finds nothing yet.
   */
  void announceInCallerTransaction(Connection c) throws SQLException {
    dialect.afterMessagesReady(c, SIGNAL);
    signal.run();
  }
}
