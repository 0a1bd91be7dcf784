package io.redrive.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names Redrive's schema in every statement a connection prepares, so the store's SQL runs the same
 * on its own connections and on an application's, whatever their search path.
 *
 * <p>Implementation notes. The JDBC layer writes its statements with bare table names ({@code
 * redrive_messages}); this rewrites each distinct text once ({@code redrive.redrive_messages}) and
 * remembers the result, so a statement costs a map lookup. Every connection the store uses passes
 * through {@link #wrap}, which is the one place a table name meets its schema: a statement added
 * later cannot forget it. Only names starting {@code redrive_} that are not already qualified,
 * quoted or called as functions are rewritten, and calls of Redrive's own SQL functions ({@link
 * #FUNCTION}, created by the migrations in the schema). Thread-safe.
 */
final class SchemaQualifier {
  private static final Pattern TABLE =
      Pattern.compile("(?<![\\w.\"'])(redrive_[a-z0-9_]+)(?![\\w\"'(])");

  /** Calls of the functions Redrive's migrations create (PostgreSQL: V17). */
  private static final Pattern FUNCTION =
      Pattern.compile("(?<![\\w.\"'])(redrive_json_or_null)(?=\\()");

  /** Distinct statement texts remembered; the store's texts number in the low hundreds. */
  private static final int MAX_CACHED = 4096;

  private final String prefix;
  private final Map<String, String> qualified = new ConcurrentHashMap<>();

  /**
   * @param schema a lower-case SQL identifier ({@code [a-z_][a-z0-9_]*}), so it needs no quoting
   */
  SchemaQualifier(String schema) {
    if (!schema.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new IllegalArgumentException(
          "schema: use 1-63 characters of a-z, 0-9 and '_', was \"" + schema + "\"");
    }
    this.prefix = schema + ".";
  }

  /** {@code sql} with each Redrive table named with the schema. */
  String qualify(String sql) {
    String done = qualified.get(sql);
    if (done != null) {
      return done;
    }
    Matcher m = TABLE.matcher(sql);
    done = m.replaceAll(Matcher.quoteReplacement(prefix) + "$1");
    done = FUNCTION.matcher(done).replaceAll(Matcher.quoteReplacement(prefix) + "$1");
    if (qualified.size() < MAX_CACHED) {
      qualified.put(sql, done);
    }
    return done;
  }

  /** A view of {@code connection} whose prepared statements and calls are qualified. */
  Connection wrap(Connection connection) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (args != null
                  && args.length > 0
                  && args[0] instanceof String sql
                  && takesSql(method)) {
                args[0] = qualify(sql);
              }
              return invoke(connection, method, args);
            });
  }

  private static boolean takesSql(Method method) {
    String name = method.getName();
    return name.equals("prepareStatement") || name.equals("prepareCall");
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
