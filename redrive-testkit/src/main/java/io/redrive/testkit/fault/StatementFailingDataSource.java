package io.redrive.testkit.fault;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} that fails one chosen statement: after {@link #failAt(int) failAt(n)}, the
 * n-th statement executed from then on throws an {@link SQLException} (SQLState {@code 22000}, a
 * data exception no store retries) without reaching the database, as a constraint or a full disk
 * would stop it. Walking n from 1 upwards fails each statement of an operation in turn, so a test
 * can check that none of them leaves a part of the operation written. Thread-safe.
 */
public final class StatementFailingDataSource extends WrappingDataSource {
  private static final String INJECTED_STATE = "22000";

  private final AtomicInteger remaining = new AtomicInteger(-1);
  private final AtomicInteger executed = new AtomicInteger();

  public StatementFailingDataSource(DataSource target) {
    super(target);
  }

  /** Fails the {@code n}-th statement executed from now on (1 = the next one). */
  public void failAt(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n: must be at least 1, was " + n);
    }
    executed.set(0);
    remaining.set(n);
  }

  /** Fails nothing from now on. */
  public void disarm() {
    remaining.set(-1);
  }

  /** Statements executed since the last {@link #failAt}, the failed one included. */
  public int executed() {
    return executed.get();
  }

  @Override
  protected Connection wrap(Connection real) {
    return connection(
        (proxy, method, args) -> {
          Object result = invoke(real, method, args);
          if (result instanceof Statement statement) {
            return failing(statement, method.getReturnType());
          }
          return result;
        });
  }

  private Object failing(Statement statement, Class<?> type) {
    return Proxy.newProxyInstance(
        Statement.class.getClassLoader(),
        new Class<?>[] {type},
        (proxy, method, args) -> {
          if (method.getName().startsWith("execute")) {
            executed.incrementAndGet();
            if (remaining.get() > 0 && remaining.decrementAndGet() == 0) {
              throw new SQLException(
                  "statement " + executed.get() + " failed (injected by the test)", INJECTED_STATE);
            }
          }
          return invoke(statement, method, args);
        });
  }
}
