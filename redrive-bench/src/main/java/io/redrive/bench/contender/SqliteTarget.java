package io.redrive.bench.contender;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/** SQLite files in a scratch directory (deleted on close); each run gets a fresh file. */
public final class SqliteTarget implements Target {
  private final Path directory;
  private final AtomicInteger files = new AtomicInteger();

  /**
   * @param parent where the scratch directory goes (the default temp directory when null)
   */
  public SqliteTarget(Path parent) {
    try {
      this.directory =
          parent == null
              ? Files.createTempDirectory("redrive-bench")
              : Files.createDirectories(parent).resolve("redrive-bench-" + System.nanoTime());
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public BenchDatabase newDatabase() {
    return new SqliteDatabase(directory.resolve("run-" + files.incrementAndGet() + ".db"));
  }

  @Override
  public String version() {
    try (SqliteDatabase db = (SqliteDatabase) newDatabase();
        Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT sqlite_version()")) {
      rs.next();
      return "SQLite " + rs.getString(1);
    } catch (SQLException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /** The pragmas every connection (Redrive's and the baseline's) is opened with, as read back. */
  @Override
  public Map<String, String> settings() {
    Map<String, String> out = new LinkedHashMap<>();
    try (SqliteDatabase db = (SqliteDatabase) newDatabase();
        Connection c = db.connect();
        Statement s = c.createStatement()) {
      for (String pragma :
          new String[] {"journal_mode", "synchronous", "busy_timeout", "page_size", "cache_size"}) {
        try (ResultSet rs = s.executeQuery("PRAGMA " + pragma)) {
          rs.next();
          out.put(pragma, rs.getString(1));
        }
      }
    } catch (SQLException e) {
      out.put("error", e.getMessage());
    }
    out.put("synchronous", out.get("synchronous") + " (NORMAL)");
    out.put("transaction mode", "IMMEDIATE (Redrive's writes); baseline: one statement each");
    out.put("file system", directory.toString());
    return out;
  }

  @Override
  public void close() {
    try (Stream<Path> walk = Files.walk(directory)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a scratch directory left behind is harmless
    }
  }
}
