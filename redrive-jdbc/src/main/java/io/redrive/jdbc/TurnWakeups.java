package io.redrive.jdbc;

import io.redrive.jdbc.workflow.Workflows;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The wake-ups of workflow turns that a transaction's statements announced ({@link
 * Workflows#takeAnnounced}), told when the transaction ends: after a commit of a transaction the
 * store runs, through the store's ready signal (this node's pollers, and on PostgreSQL a NOTIFY
 * coalesced with other commits' and sent outside any transaction); inside a caller's transaction,
 * by a NOTIFY its commit sends. Dropped on a rollback. Thread-safe.
 */
final class TurnWakeups {
  private final Workflows workflows;
  private volatile Runnable committed = () -> {};

  TurnWakeups(Workflows workflows) {
    this.workflows = workflows;
  }

  /** What tells of due turns after a commit; set once by the store. */
  void onCommitted(Runnable wake) {
    this.committed = wake;
  }

  /** Before a transaction's statements: a mark left by a rolled-back try is not this one's. */
  void begin() {
    Workflows.takeAnnounced();
  }

  void committed() {
    if (Workflows.takeAnnounced()) {
      committed.run();
    }
  }

  void rolledBack() {
    Workflows.takeAnnounced();
  }

  /** At the end of the statements run in a caller's transaction, before the caller commits. */
  void inCallerTransaction(Connection c) throws SQLException {
    if (Workflows.takeAnnounced()) {
      workflows.announceInCallerTransaction(c);
    }
  }
}
