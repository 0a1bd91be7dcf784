package io.redrive.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.CommitUnknownException;
import io.redrive.error.StoreException;
import io.redrive.jdbc.workflow.Workflows;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

class TransactionsTest {
  private final List<String> calls = new ArrayList<>();
  private final AtomicInteger works = new AtomicInteger();

  @Test
  void write_commitLosesItsConnection_isCommitUnknownAndNotRetried() {
    Transactions tx = transactions(m -> m.equals("commit") ? broken("08006") : null);

    assertThatThrownBy(() -> tx.write("enqueue", c -> works.incrementAndGet()))
        .isInstanceOfSatisfying(
            CommitUnknownException.class,
            e -> {
              assertThat(e.code()).isEqualTo("COMMIT_UNKNOWN");
              assertThat(e.sqlState()).isEqualTo("08006");
            })
        .hasMessageContaining("enqueue failed while committing");
    assertThat(works).hasValue(1);
  }

  @Test
  void write_cleanUpFailsAfterCommitUnknown_keepsTheCommitFailureAndSuppressesTheRest() {
    Transactions tx =
        transactions(
            m ->
                m.equals("commit")
                    ? broken("08006")
                    : m.equals("setAutoCommit(true)") ? closed() : null);

    assertThatThrownBy(() -> tx.write("complete", c -> works.incrementAndGet()))
        .isInstanceOfSatisfying(
            CommitUnknownException.class,
            e ->
                assertThat(e.getSuppressed())
                    .extracting(Throwable::getMessage)
                    .contains("Connection is closed"));
  }

  @Test
  void write_commitDefinitelyRolledBack_isRetriedAsBefore() {
    AtomicInteger commits = new AtomicInteger();
    Transactions tx =
        transactions(
            m -> m.equals("commit") && commits.incrementAndGet() == 1 ? broken("40001") : null);

    Integer result = tx.write("fail", c -> works.incrementAndGet());
    assertThat(result).isEqualTo(2);
    assertThat(commits).hasValue(2);
  }

  @Test
  void write_workFailsAndCleanUpFailsToo_answersTheWorkFailure() {
    Transactions tx = transactions(m -> m.equals("setAutoCommit(true)") ? closed() : null);

    assertThatThrownBy(
            () ->
                tx.write(
                    "lease",
                    c -> {
                      throw new SQLException("no such column", "42703");
                    }))
        .isInstanceOfSatisfying(
            StoreException.class, e -> assertThat(e.sqlState()).isEqualTo("42703"))
        .hasMessageContaining("no such column")
        .satisfies(
            e ->
                assertThat(e.getCause().getSuppressed())
                    .extracting(Throwable::getMessage)
                    .contains("Connection is closed"));
  }

  @Test
  void write_cleanUpFailsAfterASuccessfulCommit_answersTheResult() {
    Transactions tx =
        transactions(m -> m.equals("setAutoCommit(true)") || m.equals("close") ? closed() : null);

    String result = tx.write("enqueue", c -> "done");
    assertThat(result).isEqualTo("done");
  }

  @Test
  void read_closeFailsAfterTheAnswer_answersTheResult() {
    Transactions tx = transactions(m -> m.equals("close") ? closed() : null);

    String result = tx.read("get", c -> "found");
    assertThat(result).isEqualTo("found");
  }

  private static SQLException broken(String state) {
    return new SQLException("An I/O error occurred while sending to the backend", state);
  }

  private static SQLException closed() {
    return new SQLException("Connection is closed");
  }

  /**
   * Connections on which {@code failures} names the exception a call throws (or null); restoring
   * auto-commit is the call {@code setAutoCommit(true)}.
   */
  private Transactions transactions(Function<String, SQLException> failures) {
    DataSource ds =
        proxy(
            DataSource.class,
            (m, args) -> {
              if (m.equals("getConnection")) {
                return proxy(
                    Connection.class,
                    (cm, cargs) -> {
                      String call =
                          cm.equals("setAutoCommit") && Boolean.TRUE.equals(cargs[0])
                              ? "setAutoCommit(true)"
                              : cm;
                      calls.add(call);
                      SQLException failure = failures.apply(call);
                      if (failure != null) {
                        throw failure;
                      }
                      return null;
                    });
              }
              throw new UnsupportedOperationException(m);
            });
    TestDialect dialect = new TestDialect();
    return new Transactions(ds, dialect, null, new TurnWakeups(new Workflows(dialect, () -> {})));
  }

  /** Answers a proxied call from its method name and arguments. */
  private interface Answer {
    Object answer(String method, Object[] args) throws Exception;
  }

  private static <T> T proxy(Class<T> type, Answer answer) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (p, method, args) -> answer.answer(method.getName(), args)));
  }

  /** PostgreSQL's notion of transient failures, without the driver. */
  private static final class TestDialect implements SqlDialect {
    @Override
    public String lockRows(String alias) {
      return "";
    }

    @Override
    public String lockRowsSkipLocked(String alias) {
      return "";
    }

    @Override
    public boolean isTransient(SQLException e) {
      String state = e.getSQLState();
      return state != null && (state.startsWith("40") || state.startsWith("08"));
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
      return false;
    }
  }
}
