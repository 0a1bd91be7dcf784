package io.redrive.spring;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * What the application's {@link DataSource} reaches, read once from a connection's metadata: the
 * database product, and for SQLite the file (so Redrive can keep its tables in the same file and
 * join the application's transactions there).
 *
 * @param product the JDBC product name, e.g. "PostgreSQL" or "SQLite"
 * @param sqliteFile the SQLite database file, or null (another product, or an in-memory database)
 */
record ApplicationDatabase(String product, Path sqliteFile) {
  private static final String SQLITE_PREFIX = "jdbc:sqlite:";

  static ApplicationDatabase of(DataSource dataSource, String store) {
    try (Connection c = dataSource.getConnection()) {
      String product = c.getMetaData().getDatabaseProductName();
      return new ApplicationDatabase(product, sqliteFile(c.getMetaData().getURL()));
    } catch (SQLException e) {
      throw new IllegalStateException(
          "redrive.store=" + store + ": cannot reach the application's DataSource: " + e, e);
    }
  }

  boolean isPostgres() {
    return "PostgreSQL".equals(product);
  }

  /** The file a {@code jdbc:sqlite:} URL names, or null for memory or another driver's URL. */
  static Path sqliteFile(String url) {
    if (url == null || !url.startsWith(SQLITE_PREFIX)) {
      return null;
    }
    String rest = url.substring(SQLITE_PREFIX.length());
    int query = rest.indexOf('?');
    String file = query < 0 ? rest : rest.substring(0, query);
    if (file.startsWith("file:")) {
      file = file.substring("file:".length());
    }
    if (file.isEmpty() || file.contains(":memory:") || file.contains("mode=memory")) {
      return null;
    }
    return Path.of(file).toAbsolutePath().normalize();
  }
}
