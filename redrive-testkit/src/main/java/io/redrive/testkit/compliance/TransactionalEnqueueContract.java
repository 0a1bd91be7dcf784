package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

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
}
