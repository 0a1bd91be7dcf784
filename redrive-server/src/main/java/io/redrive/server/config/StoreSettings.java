package io.redrive.server.config;

import io.redrive.error.JdbcUrls;
import io.redrive.jdbc.MigrationMode;
import io.redrive.postgres.PostgresStore;
import io.redrive.postgres.PostgresStoreBuilder;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Which store the server runs on, and how to open or migrate it.
 *
 * @param kind SQLITE (default) or POSTGRES
 * @param dataDir the SQLite data directory (default {@code ./data})
 * @param pgUrl the PostgreSQL JDBC url (POSTGRES only)
 * @param pgUser the PostgreSQL user, or null (from the url)
 * @param pgPassword the PostgreSQL password, or null
 * @param pgSchema the schema for Redrive's tables, or null for {@value
 *     PostgresStore#DEFAULT_SCHEMA}
 * @param poolSize connections in the pool
 * @param migrations MIGRATE (default) applies pending schema migrations on open; VALIDATE refuses a
 *     schema not at this build's version ({@code redrive migrate} applies them)
 */
public record StoreSettings(
    Kind kind,
    Path dataDir,
    String pgUrl,
    String pgUser,
    String pgPassword,
    String pgSchema,
    int poolSize,
    MigrationMode migrations) {

  /**
   * How long a request waits for a PostgreSQL connection before it is answered 503 {@code
   * STORE_UNAVAILABLE}: while the database is down a request outlives its own {@code wait} by at
   * most this (documented in docs/configuration.md).
   */
  public static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(2);

  /**
   * How long a statement waits for PostgreSQL's answer before its connection is given up and the
   * request answered 503 ({@code STORE_UNAVAILABLE}, or {@code COMMIT_UNKNOWN} when it was the
   * COMMIT): bounds a request while the database hangs without closing connections (documented in
   * docs/configuration.md). Migrations are not cut by it.
   */
  public static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(5);

  public StoreSettings {
    if (migrations == null) {
      migrations = MigrationMode.MIGRATE;
    }
  }

  /** Settings that migrate the schema on open. */
  public StoreSettings(
      Kind kind,
      Path dataDir,
      String pgUrl,
      String pgUser,
      String pgPassword,
      String pgSchema,
      int poolSize) {
    this(kind, dataDir, pgUrl, pgUser, pgPassword, pgSchema, poolSize, MigrationMode.MIGRATE);
  }

  /** These settings with {@code mode} for the schema on open. */
  public StoreSettings withMigrations(MigrationMode mode) {
    return new StoreSettings(kind, dataDir, pgUrl, pgUser, pgPassword, pgSchema, poolSize, mode);
  }

  /** The two stores. */
  public enum Kind {
    SQLITE,
    POSTGRES
  }

  public static StoreSettings sqlite(Path dataDir) {
    return new StoreSettings(Kind.SQLITE, dataDir, null, null, null, null, 4);
  }

  public static StoreSettings postgres(String url, String user, String password, String schema) {
    return new StoreSettings(Kind.POSTGRES, null, url, user, password, schema, 10);
  }

  /** Opens the store these settings name, migrating its schema. */
  public Store open() {
    return kind() == Kind.SQLITE ? sqliteBuilder().build() : postgresBuilder().build();
  }

  /** Applies pending schema migrations without opening a store; the versions applied. */
  public List<String> migrate() {
    return kind() == Kind.SQLITE ? sqliteBuilder().migrate() : postgresBuilder().migrate();
  }

  /** The SQL that would bring the schema to this build's version; changes nothing. */
  public String pendingSql() {
    return kind() == Kind.SQLITE ? sqliteBuilder().pendingSql() : postgresBuilder().pendingSql();
  }

  /** Where the store keeps its tables, for messages: {@code SQLite at data/redrive.db}. */
  public String where() {
    return kind() == Kind.SQLITE
        ? "SQLite at " + dataDir().resolve(SqliteStore.FILE_NAME)
        : "PostgreSQL, schema " + (pgSchema() == null ? PostgresStore.DEFAULT_SCHEMA : pgSchema());
  }

  private SqliteStore.Builder sqliteBuilder() {
    if (dataDir() == null) {
      throw new IllegalArgumentException("store.dataDir: is required for SQLite");
    }
    try {
      Files.createDirectories(dataDir());
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "store.dataDir: cannot create \"" + dataDir() + "\": " + e.getMessage(), e);
    }
    SqliteStore.Builder b =
        SqliteStore.builder(dataDir().resolve(SqliteStore.FILE_NAME)).migrationMode(migrations());
    if (poolSize() > 0) {
      b.poolSize(Math.min(poolSize(), 64));
    }
    return b;
  }

  private PostgresStoreBuilder postgresBuilder() {
    if (pgUrl() == null || pgUrl().isBlank()) {
      throw new IllegalArgumentException("store.pgUrl: is required for PostgreSQL");
    }
    PostgresStoreBuilder b =
        PostgresStore.builder(pgUrl())
            .migrationMode(migrations())
            .connectionTimeout(CONNECTION_TIMEOUT)
            .socketTimeout(SOCKET_TIMEOUT);
    if (pgUser() != null) {
      b.username(pgUser());
    }
    if (pgPassword() != null) {
      b.password(pgPassword());
    }
    if (pgSchema() != null) {
      b.schema(pgSchema());
    }
    if (poolSize() > 0) {
      b.poolSize(poolSize());
    }
    return b;
  }

  /** Shows every setting except the password. */
  @Override
  public String toString() {
    return "StoreSettings[kind="
        + kind
        + ", dataDir="
        + dataDir
        + ", pgUrl="
        + JdbcUrls.mask(pgUrl)
        + ", pgUser="
        + pgUser
        + ", pgPassword="
        + (pgPassword == null ? "null" : "****")
        + ", pgSchema="
        + pgSchema
        + ", poolSize="
        + poolSize
        + ", migrations="
        + migrations
        + "]";
  }
}
