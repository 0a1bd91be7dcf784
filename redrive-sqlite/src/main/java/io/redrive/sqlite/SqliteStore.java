package io.redrive.sqlite;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.redrive.jdbc.JdbcStore;
import io.redrive.jdbc.MigrationMode;
import io.redrive.jdbc.SchemaMigrations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The embedded default store: one SQLite file in WAL mode ({@code synchronous=NORMAL}), one writer
 * at a time, schema migrated on open (history in {@code redrive_schema_history}). For one node; use
 * PostgreSQL to share a queue between machines. Thread-safe.
 */
public final class SqliteStore extends JdbcStore {
  /** The database file name inside a data directory. */
  public static final String FILE_NAME = "redrive.db";

  /** Where the migration scripts are on the classpath. */
  static final String MIGRATIONS = "db/redrive/sqlite";

  private final HikariDataSource pool;
  private final Path file;

  private SqliteStore(HikariDataSource pool, Path file, UnaryOperator<DataSource> wrapper) {
    super(wrapper.apply(new StatementCache(pool)), new SqliteDialect(file));
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
    return builder(file).poolSize(poolSize).build();
  }

  /** A builder for a store on {@code file} (created if missing). */
  public static Builder builder(Path file) {
    if (file == null) {
      throw new IllegalArgumentException("file: must not be null");
    }
    return new Builder(file);
  }

  /** Builds a {@link SqliteStore}; settings are checked when set. Not thread-safe. */
  public static final class Builder {
    /** How long opening keeps trying while another node holds the new file's WAL switch. */
    private static final Duration OPEN_RETRY = Duration.ofSeconds(10);

    private final Path file;
    private int poolSize = 4;
    private MigrationMode migrationMode = MigrationMode.MIGRATE;
    private UnaryOperator<DataSource> wrapper = UnaryOperator.identity();

    private Builder(Path file) {
      this.file = file;
    }

    /** Connections (readers run in parallel; writers take turns), 1–64 (default 4). */
    public Builder poolSize(int value) {
      if (value < 1 || value > 64) {
        throw new IllegalArgumentException("poolSize: must be between 1 and 64, was " + value);
      }
      this.poolSize = value;
      return this;
    }

    /**
     * {@link MigrationMode#MIGRATE} (default) applies pending migrations on open; {@link
     * MigrationMode#VALIDATE} changes nothing and refuses a schema not at this build's version.
     */
    public Builder migrationMode(MigrationMode value) {
      if (value == null) {
        throw new IllegalArgumentException("migrationMode: must not be null");
      }
      this.migrationMode = value;
      return this;
    }

    /**
     * Wraps the data source the store takes its connections from (pooled, statements cached), e.g.
     * for statement tracing or fault injection in tests (default: none). Schema migrations run
     * without it.
     */
    public Builder wrapDataSource(UnaryOperator<DataSource> value) {
      if (value == null) {
        throw new IllegalArgumentException("wrapDataSource: must not be null");
      }
      this.wrapper = value;
      return this;
    }

    /** Opens the store: checks or migrates the schema. */
    public SqliteStore build() {
      HikariDataSource pool = pool();
      try {
        migrations(pool).apply(migrationMode);
      } catch (RuntimeException e) {
        pool.close();
        throw e;
      }
      return new SqliteStore(pool, file, wrapper);
    }

    /** Applies every pending migration without opening a store; returns the versions applied. */
    public List<String> migrate() {
      try (HikariDataSource pool = pool()) {
        return migrations(pool).migrate();
      }
    }

    /** The SQL that brings the file to this build's version, for review; changes nothing. */
    public String pendingSql() {
      try (HikariDataSource pool = pool()) {
        return migrations(pool).pendingSql("", "(strftime('%Y-%m-%d %H:%M:%f','now'))");
      }
    }

    private SchemaMigrations migrations(HikariDataSource pool) {
      return new SchemaMigrations(pool, MIGRATIONS, null, "SQLite file " + file);
    }

    /**
     * The pool, its first connection open. Nodes opening a new file at once race to switch it to
     * WAL, which takes an exclusive lock SQLite does not wait for (SQLITE_BUSY despite the busy
     * timeout); the loser tries again shortly, for up to {@link #OPEN_RETRY}.
     */
    private HikariDataSource pool() {
      long deadline = System.nanoTime() + OPEN_RETRY.toNanos();
      while (true) {
        try {
          return newPool();
        } catch (HikariPool.PoolInitializationException e) {
          if (!busy(e) || System.nanoTime() > deadline) {
            throw e;
          }
          try {
            Thread.sleep(20);
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw e;
          }
        }
      }
    }

    private static boolean busy(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof SQLiteException s
            && (s.getResultCode() == SQLiteErrorCode.SQLITE_BUSY
                || s.getResultCode() == SQLiteErrorCode.SQLITE_LOCKED)) {
          return true;
        }
      }
      return false;
    }

    private HikariDataSource newPool() {
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
      return new HikariDataSource(hikari);
    }
  }

  /** The database file. */
  public Path file() {
    return file;
  }

  @Override
  protected void release() {
    pool.close();
  }
}
