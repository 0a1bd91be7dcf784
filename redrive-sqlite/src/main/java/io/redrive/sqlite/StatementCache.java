package io.redrive.sqlite;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.sqlite.SQLiteConnection;

/**
 * A data source that keeps each pooled SQLite connection's prepared statements for reuse.
 *
 * <p>Implementation notes. The SQLite driver compiles SQL on every {@code prepareStatement}, and
 * for the store's short transactions compiling cost about as much as running (a quarter of a
 * lease's time, measured). Neither the driver nor the pool caches statements, so this does: a
 * connection handed out here prepares on the physical connection, keyed by SQL text, least recently
 * used first out beyond {@link #PER_CONNECTION}; {@code close} on such a statement only clears its
 * parameters and any batch left unrun. The same SQL prepared again while its statement is still
 * open (nested) gets a private statement instead. Statements are prepared on the physical
 * connection so the pool, which closes the statements a borrower leaves open, never sees them; they
 * die with it. A physical connection is used by one borrower at a time, so each connection's cache
 * needs no lock.
 */
final class StatementCache implements DataSource {
  /** Statements kept per connection; the store's SQL texts number in the low hundreds. */
  static final int PER_CONNECTION = 256;

  private final DataSource pool;
  private final Map<Connection, Map<String, Cached>> caches =
      Collections.synchronizedMap(new WeakHashMap<>());

  StatementCache(DataSource pool) {
    this.pool = pool;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return caching(pool.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return caching(pool.getConnection(username, password));
  }

  private Connection caching(Connection borrowed) throws SQLException {
    Connection physical = borrowed.unwrap(SQLiteConnection.class);
    Map<String, Cached> cache = caches.computeIfAbsent(physical, c -> lru());
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("prepareStatement") && args != null && args.length == 1) {
                return prepared(physical, cache, (String) args[0]);
              }
              return invoke(borrowed, method, args);
            });
  }

  private static PreparedStatement prepared(
      Connection physical, Map<String, Cached> cache, String sql) throws SQLException {
    Cached cached = cache.get(sql);
    if (cached == null || cached.statement.isClosed()) {
      cached = new Cached(physical.prepareStatement(sql));
      cache.put(sql, cached);
    } else if (cached.inUse) {
      // The same SQL nested inside its own use: a private statement, closed for real.
      return physical.prepareStatement(sql);
    }
    Cached target = cached;
    target.inUse = true;
    return (PreparedStatement)
        Proxy.newProxyInstance(
            PreparedStatement.class.getClassLoader(),
            new Class<?>[] {PreparedStatement.class},
            (proxy, method, args) -> {
              if (method.getName().equals("close") && method.getParameterCount() == 0) {
                if (target.inUse) {
                  target.inUse = false;
                  target.statement.clearParameters();
                  // A batch its borrower built but never ran (it failed before executeBatch)
                  // must not run with the next borrower's.
                  target.statement.clearBatch();
                }
                return null;
              }
              return invoke(target.statement, method, args);
            });
  }

  /** A statement in a connection's cache; {@code inUse} while a borrower holds it. */
  private static final class Cached {
    final PreparedStatement statement;
    boolean inUse;

    Cached(PreparedStatement statement) {
      this.statement = statement;
    }
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Map<String, Cached> lru() {
    return new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
        if (size() <= PER_CONNECTION || eldest.getValue().inUse) {
          return false;
        }
        try {
          eldest.getValue().statement.close();
        } catch (SQLException e) {
          // a statement that cannot close is finalized with its connection
        }
        return true;
      }
    };
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return pool.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    pool.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    pool.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return pool.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return pool.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return iface.isInstance(this) ? iface.cast(this) : pool.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(this) || pool.isWrapperFor(iface);
  }
}
