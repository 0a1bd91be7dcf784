package io.redrive.testkit.fault;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * A {@link DataSource} that changes nothing and tells an observer the SQLState of every {@link
 * SQLException} a statement throws (of the exception, its causes and its next exceptions), before
 * the store sees it: so a test can tell that a failure the store retries silently (a deadlock,
 * {@code 40P01}) never happened. The observer is called from the statement's thread.
 */
public final class FailureWatchingDataSource extends WrappingDataSource {
  private final Consumer<String> observer;

  public FailureWatchingDataSource(DataSource target, Consumer<String> observer) {
    super(target);
    this.observer = observer;
  }

  @Override
  protected Connection wrap(Connection real) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              Object result = invoke(real, method, args);
              if (result instanceof Statement statement) {
                return watched(statement, method.getReturnType());
              }
              return result;
            });
  }

  private Object watched(Statement statement, Class<?> type) {
    return Proxy.newProxyInstance(
        Statement.class.getClassLoader(),
        new Class<?>[] {type},
        (proxy, method, args) -> {
          try {
            return invoke(statement, method, args);
          } catch (SQLException e) {
            tell(e);
            throw e;
          }
        });
  }

  private void tell(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException s) {
        for (SQLException n = s; n != null; n = n.getNextException()) {
          if (n.getSQLState() != null) {
            observer.accept(n.getSQLState());
          }
        }
      }
    }
  }
}
