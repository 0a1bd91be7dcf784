package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.TestPostgres;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.BiConsumer;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The three ways of enqueuing inside a Spring-managed transaction on PostgreSQL (the plain call,
 * the transaction's own connection, a connection taken from the pool beside it) all roll back with
 * it and all commit with it; outside one, an enqueue commits on its own; a {@code REQUIRES_NEW}
 * inner transaction keeps its own outcome. With {@code DataSourceTransactionManager}.
 */
class TransactionJoiningTest {
  private static final String QUEUE = "emails";

  private String database;
  private ApplicationContextRunner runner;

  /** One way of enqueuing, given the engine and the application's DataSource. */
  private interface Way extends BiConsumer<Redrive, DataSource> {}

  private static final Way PLAIN = (redrive, ds) -> redrive.enqueue(message());

  private static final Way TRANSACTION_CONNECTION =
      (redrive, ds) -> redrive.enqueue(DataSourceUtils.getConnection(ds), message());

  private static final Way POOL_CONNECTION =
      (redrive, ds) -> {
        try (Connection c = ds.getConnection()) {
          redrive.enqueue(c, message());
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      };

  @BeforeEach
  void createDatabase() {
    database = TestPostgres.createDatabase("springtx");
    runner = Runners.withTransactions(TestPostgres.urlForDatabase(database));
  }

  @AfterEach
  void dropDatabase() {
    TestPostgres.dropDatabase(database);
  }

  @Test
  void plainEnqueue_rollsBackWithTheTransaction() {
    assertRollsBack(PLAIN);
  }

  @Test
  void enqueueOnTheTransactionsConnection_rollsBackWithIt() {
    assertRollsBack(TRANSACTION_CONNECTION);
  }

  @Test
  void enqueueOnAConnectionTakenBesideTheTransaction_rollsBackWithIt() {
    assertRollsBack(POOL_CONNECTION);
  }

  @Test
  void everyWay_commitsWithTheTransaction() {
    runner.run(
        context -> {
          Redrive redrive = engine(context);
          DataSource ds = context.getBean(DataSource.class);
          new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
              .executeWithoutResult(
                  status -> {
                    for (Way way : new Way[] {PLAIN, TRANSACTION_CONNECTION, POOL_CONNECTION}) {
                      way.accept(redrive, ds);
                    }
                    assertThat(redrive.stats(QUEUE).total()).as("not before the commit").isZero();
                  });
          assertThat(redrive.stats(QUEUE).total()).isEqualTo(3);
        });
  }

  @Test
  void outsideATransaction_anEnqueueCommitsOnItsOwn() {
    runner.run(
        context -> {
          Redrive redrive = engine(context);
          PLAIN.accept(redrive, context.getBean(DataSource.class));
          POOL_CONNECTION.accept(redrive, context.getBean(DataSource.class));
          assertThat(redrive.stats(QUEUE).total()).isEqualTo(2);
        });
  }

  @Test
  void requiresNew_innerCommitsWhileTheOuterRollsBack() {
    runner.run(
        context -> {
          Redrive redrive = engine(context);
          PlatformTransactionManager tm = context.getBean(PlatformTransactionManager.class);
          TransactionTemplate inner = new TransactionTemplate(tm);
          inner.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
          assertThatThrownBy(
                  () ->
                      new TransactionTemplate(tm)
                          .executeWithoutResult(
                              status -> {
                                redrive.enqueue(message("outer"));
                                inner.executeWithoutResult(s -> redrive.enqueue(message("inner")));
                                throw new IllegalStateException("order failed");
                              }))
              .hasMessage("order failed");
          assertThat(redrive.lease(io.redrive.lease.LeaseRequest.of(QUEUE, "w", 10)).leased())
              .extracting(m -> m.payload())
              .containsExactly("\"inner\"");
        });
  }

  @Test
  void joiningTurnedOff_theEnqueueCommitsOnItsOwn() {
    runner
        .withPropertyValues("redrive.join-transactions=false")
        .run(
            context -> {
              Redrive redrive = engine(context);
              assertThatThrownBy(
                      () ->
                          new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                              .executeWithoutResult(
                                  status -> {
                                    redrive.enqueue(message());
                                    throw new IllegalStateException("order failed");
                                  }))
                  .hasMessage("order failed");
              assertThat(redrive.stats(QUEUE).total()).isOne();
            });
  }

  @Test
  void workflowStarts_rollBackAndCommitWithTheTransaction() {
    runner.run(
        context -> {
          WorkflowClient workflows = context.getBean(WorkflowClient.class);
          DataSource ds = context.getBean(DataSource.class);
          PlatformTransactionManager tm = context.getBean(PlatformTransactionManager.class);
          assertThatThrownBy(
                  () ->
                      new TransactionTemplate(tm)
                          .executeWithoutResult(
                              status -> {
                                workflows.start(start("plain"));
                                try (Connection c = ds.getConnection()) {
                                  workflows.start(c, start("pool"));
                                } catch (SQLException e) {
                                  throw new IllegalStateException(e);
                                }
                                throw new IllegalStateException("order failed");
                              }))
              .hasMessage("order failed");
          assertThat(workflows.get("plain")).isEmpty();
          assertThat(workflows.get("pool")).isEmpty();

          new TransactionTemplate(tm)
              .executeWithoutResult(status -> workflows.start(start("kept")));
          assertThat(workflows.get("kept")).isPresent();
          workflows.start(start("alone")); // outside a transaction: commits on its own
          assertThat(workflows.get("alone")).isPresent();
        });
  }

  private static StartRequest start(String id) {
    return StartRequest.of("fulfil-order", Map.of("order", id)).withInstanceId(id);
  }

  private void assertRollsBack(Way way) {
    runner.run(
        context -> {
          Redrive redrive = engine(context);
          DataSource ds = context.getBean(DataSource.class);
          assertThatThrownBy(
                  () ->
                      new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                          .executeWithoutResult(
                              status -> {
                                way.accept(redrive, ds);
                                throw new IllegalStateException("order failed");
                              }))
              .hasMessage("order failed");
          assertThat(redrive.stats(QUEUE).total()).isZero();
          way.accept(redrive, ds); // the same way outside a transaction goes in
          assertThat(redrive.stats(QUEUE).total()).isOne();
        });
  }

  private static Redrive engine(ApplicationContext context) {
    Redrive redrive = context.getBean(Redrive.class);
    redrive.declareQueue(QUEUE, QueuePolicy.defaults());
    return redrive;
  }

  private static NewMessage message() {
    return message("hello");
  }

  private static NewMessage message(String text) {
    return NewMessage.builder(QUEUE, "send").payload("\"" + text + "\"").build();
  }
}
