package io.redrive.test;

import io.redrive.postgres.PostgresStore;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Opens a test class's store on the application's PostgreSQL, in a schema of its own named after
 * the class, and drops the schema afterwards. Kept apart from {@link TestStore} so that {@code
 * redrive-postgres}, an optional dependency, is loaded only by tests that ask for PostgreSQL.
 */
final class PostgresTestStores {
  private static final SecureRandom RANDOM = new SecureRandom();

  private PostgresTestStores() {}

  static TestStore open(String jdbcUrl, DataSource dataSource, String testClass) {
    String schema = schemaFor(testClass);
    PostgresStore store =
        dataSource != null
            ? PostgresStore.builder(dataSource).schema(schema).build()
            : PostgresStore.builder(jdbcUrl).schema(schema).build();
    return new TestStore(store, null, schema, () -> drop(jdbcUrl, dataSource, schema));
  }

  /** {@code redrive_test_<class>_<random>}: readable in psql, unique per run, at most 63 bytes. */
  static String schemaFor(String testClass) {
    String simple = testClass.substring(testClass.lastIndexOf('.') + 1);
    String base = simple.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    if (base.length() > 21) {
      base = base.substring(0, 21);
    }
    return "redrive_test_" + base + "_" + Long.toString(RANDOM.nextLong() & Long.MAX_VALUE, 36);
  }

  private static void drop(String jdbcUrl, DataSource dataSource, String schema) {
    try (Connection c =
            dataSource != null ? dataSource.getConnection() : DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      if (!c.getAutoCommit()) {
        c.setAutoCommit(true);
      }
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("could not drop the test schema " + schema, e);
    }
  }
}
