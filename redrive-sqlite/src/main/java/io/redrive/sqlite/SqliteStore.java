package io.redrive.sqlite;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.redrive.error.StoreException;
import io.redrive.jdbc.JdbcStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flywaydb.core.Flyway;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The embedded default store: one SQLite file in WAL mode ({@code synchronous=NORMAL}), one writer
 * at a time, schema migrated on open. For one node; use PostgreSQL to share a queue between
 * machines. Thread-safe.
 */
public final class SqliteStore extends JdbcStore {
  /** The database file name inside a data directory. */
  public static final String FILE_NAME = "redrive.db";

  private final HikariDataSource pool;
  private final Path file;

  private SqliteStore(HikariDataSource pool, Path file) {
    super(new StatementCache(pool), new SqliteDialect(file));
    this.pool = pool;
    this.file = file;
  }

  /** Opens (creating if needed) {@code redrive.db} in {@code dataDirectory}. */
  public static SqliteStore inDirectory(Path dataDirectory) {
    try {
      Files.createDirectories(dataDirectory);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "dataDirectory: cannot create \"" + dataDirectory + "\": " + e.getMessage(), e);
    }
    return open(dataDirectory.resolve(FILE_NAME), 4);
  }

  /**
   * Opens (creating if needed) the database file and migrates its schema.
   *
   * @param poolSize connections (readers run in parallel; writers take turns), 1–64
   */
  public static SqliteStore open(Path file, int poolSize) {
    if (poolSize < 1 || poolSize > 64) {
      throw new IllegalArgumentException("poolSize: must be between 1 and 64, was " + poolSize);
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setBusyTimeout(30_000);
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    SQLiteDataSource sqlite = new SQLiteDataSource(config);
    sqlite.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
    HikariConfig hikari = new HikariConfig();
    hikari.setDataSource(sqlite);
    hikari.setMaximumPoolSize(poolSize);
    hikari.setPoolName("redrive-sqlite");
    HikariDataSource pool = new HikariDataSource(hikari);
    try {
      Flyway.configure().dataSource(pool).locations("classpath:db/redrive/sqlite").load().migrate();
    } catch (RuntimeException e) {
      pool.close();
      throw new StoreException(
          "migrating the SQLite schema of " + file + " failed: " + e.getMessage(), null, false, e);
    }
    return new SqliteStore(pool, file);
  }

  /** The database file. */
  public Path file() {
    return file;
  }

  @Override
  public void close() {
    pool.close();
  }
}
