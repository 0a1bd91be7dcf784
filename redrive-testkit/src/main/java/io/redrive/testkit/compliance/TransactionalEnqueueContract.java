package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.CallerTransactions;
import io.redrive.Redrive;
import io.redrive.message.EnqueueResult;
import io.redrive.store.FindMessageParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Enqueue on the caller's connection: visible when the caller commits, gone on rollback. */
public abstract class TransactionalEnqueueContract extends ComplianceTestBase {

  @Test
  void enqueue_callerCommits_messageVisibleAndLeasable() throws SQLException {
    createQueue(QUEUE);
    String id;
    try (Connection connection = db.connect()) {
      connection.setAutoCommit(false);
      id = redrive.enqueue(connection, newMessage(QUEUE).build()).id();

      assertThat(store.findMessage(new FindMessageParams(id, clock.instant())))
          .as("visible before commit")
          .isEmpty();
      connection.commit();
    }

    assertThat(message(id).payload()).isEqualTo(PAYLOAD);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(id);
  }

  @Test
  void enqueue_callerRollsBack_messageGone() throws SQLException {
    createQueue(QUEUE);
    String id;
    try (Connection connection = db.connect()) {
      connection.setAutoCommit(false);
      id = redrive.enqueue(connection, newMessage(QUEUE).build()).id();
      connection.rollback();
    }

    assertThat(store.findMessage(new FindMessageParams(id, clock.instant()))).isEmpty();
    assertThat(stats(QUEUE).total()).isZero();
    assertNothingLeasable(QUEUE);
  }

  @Test
  void enqueue_onCallerConnection_leavesConnectionOpenAndTransactionToCaller() throws SQLException {
    createQueue(QUEUE);
    try (Connection connection = db.connect()) {
      connection.setAutoCommit(false);
      redrive.enqueue(connection, newMessage(QUEUE).build());

      assertThat(connection.isClosed()).isFalse();
      assertThat(connection.getAutoCommit()).isFalse();
      connection.rollback();
    }
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void enqueueBatch_callerCommits_allVisible() throws SQLException {
    createQueue(QUEUE);
    List<EnqueueResult> results;
    try (Connection connection = db.connect()) {
      connection.setAutoCommit(false);
      results =
          redrive.enqueueBatch(
              connection,
              List.of(
                  newMessage(QUEUE).build(), newMessage(QUEUE).build(), newMessage(QUEUE).build()));
      connection.commit();
    }

    assertThat(ids(lease(QUEUE, 10)))
        .containsExactlyElementsOf(results.stream().map(EnqueueResult::id).toList());
  }

  @Test
  void enqueue_twoTransactions_onlyCommittedOneSurvives() throws SQLException {
    createQueue(QUEUE);
    String committed;
    try (Connection connection = db.connect()) {
      connection.setAutoCommit(false);
      redrive.enqueue(connection, newMessage(QUEUE).build());
      connection.rollback();
      committed = redrive.enqueue(connection, newMessage(QUEUE).build()).id();
      connection.commit();
    }

    assertThat(ids(lease(QUEUE, 10))).containsExactly(committed);
  }

  @Test
  void plainEnqueue_joinsTheTransactionCallerTransactionsFind_rollbackDropsIt()
      throws SQLException {
    createQueue(QUEUE);
    try (Connection tx = db.connect()) {
      tx.setAutoCommit(false);
      Joining joining = new Joining(tx);
      Redrive joined = joiningEngine(joining);
      String id = joined.enqueue(newMessage(QUEUE).build()).id();
      joined.enqueueBatch(List.of(newMessage(QUEUE).build()));
      assertThat(joining.left).as("each joined connection handed back").isEqualTo(2);
      assertThat(tx.isClosed()).isFalse();
      assertThat(tx.getAutoCommit()).as("left to the caller").isFalse();
      assertThat(store.findMessage(new FindMessageParams(id, clock.instant())))
          .as("visible before commit")
          .isEmpty();
      tx.rollback();
    }
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void plainEnqueue_callerCommits_visible_andWithoutATransactionItCommitsAlone()
      throws SQLException {
    createQueue(QUEUE);
    String id;
    try (Connection tx = db.connect()) {
      tx.setAutoCommit(false);
      id = joiningEngine(new Joining(tx)).enqueue(newMessage(QUEUE).build()).id();
      tx.commit();
    }
    String alone = joiningEngine(new Joining(null)).enqueue(newMessage(QUEUE).build()).id();
    assertThat(ids(lease(QUEUE, 10))).containsExactly(id, alone);
  }

  @Test
  void autoCommitConnectionHandedIn_joinsTheTransactionInstead_otherConnectionsAreUsedAsGiven()
      throws SQLException {
    createQueue(QUEUE);
    try (Connection tx = db.connect();
        Connection beside = db.connect()) {
      tx.setAutoCommit(false);
      Redrive joined = joiningEngine(new Joining(tx));
      joined.enqueue(beside, newMessage(QUEUE).build()); // auto-commit: would commit at once
      tx.rollback();
    }
    assertThat(stats(QUEUE).total()).as("rolled back with the transaction").isZero();

    try (Connection tx = db.connect();
        Connection own = db.connect()) {
      tx.setAutoCommit(false);
      own.setAutoCommit(false);
      String id = joiningEngine(new Joining(tx)).enqueue(own, newMessage(QUEUE).build()).id();
      tx.rollback();
      own.commit(); // a connection in a transaction of its own is the caller's choice
      assertThat(ids(lease(QUEUE, 10))).containsExactly(id);
    }
  }

  /** An engine over the same store whose enqueues join what {@code joining} finds; not closed. */
  private Redrive joiningEngine(CallerTransactions joining) {
    return Redrive.builder(store).clock(clock).callerTransactions(joining).build();
  }

  /** Finds {@code connection} (or nothing, when null) and counts the hand-backs. */
  private static final class Joining implements CallerTransactions {
    private final Connection connection;
    private int left;

    Joining(Connection connection) {
      this.connection = connection;
    }

    @Override
    public Connection join() {
      return connection;
    }

    @Override
    public void leave(Connection c) {
      assertThat(c).isSameAs(connection);
      left++;
    }
  }
}
