package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.TestPostgres;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Which enqueues commit as their insert ends on PostgreSQL (docs/design-decisions.md §21): one
 * queue and no dedupe key, so the insert is the only write; every other enqueue is a transaction,
 * since it may write twice (undo a completed duplicate, insert again after a key was freed) or
 * check several queues first.
 */
class PostgresEnqueueCommitTest {
  private String database;
  private Redrive redrive;
  private final AtomicInteger transactions = new AtomicInteger();

  /** The test's thread: the store's background writer (throughput counts) is not counted. */
  private final Thread caller = Thread.currentThread();

  @BeforeEach
  void start() {
    database = TestPostgres.createDatabase("enqcommit");
    PGSimpleDataSource base = new PGSimpleDataSource();
    base.setUrl(TestPostgres.urlForDatabase(database));
    redrive = Redrive.builder(PostgresStore.builder(countingTransactions(base)).build()).build();
    redrive.createQueue("a", QueuePolicy.defaults());
    redrive.createQueue("b", QueuePolicy.defaults());
  }

  @AfterEach
  void stop() {
    redrive.close();
    TestPostgres.dropDatabase(database);
  }

  @Test
  void oneQueueWithoutDedupeKeys_commitsAsTheInsertEnds() {
    assertThat(transactionsOf(() -> redrive.enqueue(message("a", null)))).isZero();
    assertThat(
            transactionsOf(
                () -> redrive.enqueueBatch(List.of(message("a", null), message("a", null)))))
        .isZero();
    assertThat(redrive.stats("a").total()).isEqualTo(3);
  }

  @Test
  void aDedupeKeyOrSeveralQueues_makeItATransaction() {
    assertThat(transactionsOf(() -> redrive.enqueue(message("a", "k1")))).isOne();
    assertThat(
            transactionsOf(
                () -> redrive.enqueueBatch(List.of(message("a", null), message("b", null)))))
        .isOne();
    assertThat(transactionsOf(() -> redrive.enqueue(message("a", "k1"))))
        .as("a duplicate too")
        .isOne();
    assertThat(redrive.stats("a").total()).isEqualTo(2);
    assertThat(redrive.stats("b").total()).isOne();
  }

  private static NewMessage message(String queue, String dedupeKey) {
    return NewMessage.builder(queue, "t").payload("{}").dedupeKey(dedupeKey).build();
  }

  /** How many explicit transactions {@code call} began (auto-commit turned off). */
  private int transactionsOf(Runnable call) {
    int before = transactions.get();
    call.run();
    return transactions.get() - before;
  }

  private DataSource countingTransactions(DataSource real) {
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = invoke(real, method, args);
              return result instanceof Connection c ? counting(c) : result;
            });
  }

  private Connection counting(Connection real) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("setAutoCommit")
                  && !((Boolean) args[0])
                  && Thread.currentThread() == caller) {
                transactions.incrementAndGet();
              }
              return invoke(real, method, args);
            });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
