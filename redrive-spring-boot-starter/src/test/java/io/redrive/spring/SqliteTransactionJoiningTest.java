package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.queue.QueuePolicy;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * On SQLite: with the application's DataSource on a SQLite file, Redrive keeps its tables in that
 * file and every way of enqueuing joins the application's transaction there, as on PostgreSQL.
 */
class SqliteTransactionJoiningTest {
  @TempDir Path dir;

  private ApplicationContextRunner runner() {
    return runner(30_000);
  }

  private ApplicationContextRunner runner(int busyTimeoutMillis) {
    return Runners.withTransactions(
        "jdbc:sqlite:" + dir.resolve("app.db") + "?busy_timeout=" + busyTimeoutMillis);
  }

  /**
   * docs/spring-boot.md: SQLite has one writer, so an enqueue in its own transaction inside one
   * that has written waits for it and fails once the busy timeout passes; nothing is left behind.
   */
  @Test
  void requiresNew_afterTheOuterWrote_failsBusy_andLeavesNothing() {
    runner(300)
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              redrive.declareQueue("emails", QueuePolicy.defaults());
              DataSource ds = context.getBean(DataSource.class);
              JdbcTemplate jdbc = new JdbcTemplate(ds);
              jdbc.execute("CREATE TABLE orders (id TEXT PRIMARY KEY)");
              PlatformTransactionManager manager =
                  context.getBean(PlatformTransactionManager.class);
              TransactionTemplate inner = new TransactionTemplate(manager);
              inner.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
              assertThatThrownBy(
                      () ->
                          new TransactionTemplate(manager)
                              .executeWithoutResult(
                                  status -> {
                                    jdbc.update("INSERT INTO orders (id) VALUES ('o-1')");
                                    inner.executeWithoutResult(
                                        s ->
                                            EnqueueWays.enqueue(
                                                EnqueueWays.PLAIN, redrive, ds, "emails"));
                                  }))
                  .hasStackTraceContaining("SQLITE_BUSY");
              assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Integer.class))
                  .isZero();
              assertThat(redrive.stats("emails").total()).isZero();
            });
  }

  @Test
  void orderAndEmail_rollBackTogether_everyWayOfEnqueuing() {
    runner()
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              redrive.declareQueue("emails", QueuePolicy.defaults());
              DataSource ds = context.getBean(DataSource.class);
              JdbcTemplate jdbc = new JdbcTemplate(ds);
              jdbc.execute("CREATE TABLE orders (id TEXT PRIMARY KEY)");
              TransactionTemplate tx =
                  new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
              for (String way : EnqueueWays.ALL) {
                assertThatThrownBy(
                        () ->
                            tx.executeWithoutResult(
                                status -> {
                                  jdbc.update("INSERT INTO orders (id) VALUES (?)", way);
                                  EnqueueWays.enqueue(way, redrive, ds, "emails");
                                  throw new IllegalStateException("payment declined");
                                }))
                    .as(way)
                    .hasMessage("payment declined");
                assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Integer.class))
                    .as(way)
                    .isZero();
                assertThat(redrive.stats("emails").total()).as(way).isZero();
              }
              tx.executeWithoutResult(
                  status -> {
                    jdbc.update("INSERT INTO orders (id) VALUES ('kept')");
                    EnqueueWays.enqueue(EnqueueWays.PLAIN, redrive, ds, "emails");
                    EnqueueWays.enqueue(EnqueueWays.POOL_CONNECTION, redrive, ds, "emails");
                  });
              assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Integer.class)).isOne();
              assertThat(redrive.stats("emails").total()).isEqualTo(2);
            });
  }
}
