package io.redrive.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.redrive.error.JdbcUrls;
import io.redrive.error.StoreException;
import io.redrive.jdbc.MigrationMode;
import io.redrive.jdbc.SchemaMigrations;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Builds a {@link PostgresStore} on a JDBC url (the store makes and closes its own pool) or on an
 * application's {@link DataSource} (never closed by the store). Settings are checked when set, with
 * errors naming the setting and value. Not thread-safe.
 */
public final class PostgresStoreBuilder {
  /** How long a store call waits for a pooled connection by default (HikariCP's default). */
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(30);

  /**
   * How long a statement on the store's own pool may go without a byte from the database by default
   * (pgjdbc {@code socketTimeout}; the driver's own default waits forever).
   */
  public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofSeconds(30);

  private final String jdbcUrl;
  private final DataSource dataSource;
  private String username;
  private String password;
  private String schema = PostgresStore.DEFAULT_SCHEMA;
  private int poolSize = 10;
  private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
  private Duration socketTimeout = DEFAULT_SOCKET_TIMEOUT;
  private MigrationMode migrationMode = MigrationMode.MIGRATE;

  private PostgresStoreBuilder(String jdbcUrl, DataSource dataSource) {
    this.jdbcUrl = jdbcUrl;
    this.dataSource = dataSource;
  }

  static PostgresStoreBuilder forUrl(String jdbcUrl) {
    if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "pgUrl: must be a PostgreSQL JDBC url (jdbc:postgresql://host:port/db), was \""
              + JdbcUrls.mask(jdbcUrl)
              + "\"");
    }
    return new PostgresStoreBuilder(jdbcUrl, null);
  }

  static PostgresStoreBuilder forDataSource(DataSource dataSource) {
    if (dataSource == null) {
      throw new IllegalArgumentException("dataSource: must not be null");
    }
    return new PostgresStoreBuilder(null, dataSource);
  }

  /** The user for the store's own pool (a url-built store only). */
  public PostgresStoreBuilder username(String value) {
    requireOwnPool("username");
    this.username = value;
    return this;
  }

  /** The password for the store's own pool (a url-built store only). */
  public PostgresStoreBuilder password(String value) {
    requireOwnPool("password");
    this.password = value;
    return this;
  }

  /**
   * The schema holding Redrive's tables and its migration history, created if missing; default
   * {@value PostgresStore#DEFAULT_SCHEMA}. Two stores on one database with different schemas are
   * separate (their wake-ups too).
   */
  public PostgresStoreBuilder schema(String value) {
    if (value == null || !value.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new IllegalArgumentException(
          "schema: use 1-63 characters of a-z, 0-9 and '_', was \"" + value + "\"");
    }
    this.schema = value;
    return this;
  }

  /** Connections in the store's own pool, 1–200 (default 10; a url-built store only). */
  public PostgresStoreBuilder poolSize(int value) {
    requireOwnPool("poolSize");
    if (value < 1 || value > 200) {
      throw new IllegalArgumentException("poolSize: must be between 1 and 200, was " + value);
    }
    this.poolSize = value;
    return this;
  }

  /**
   * How long a store call waits for a connection from the store's own pool before it fails with a
   * transient {@code StoreException} (default 30 s; 500 ms–5 min; a url-built store only). While
   * the database is down, every call fails after this long, so a service that must answer fast sets
   * it low. A new connection's validation is bounded by half of it (at most 5 s).
   */
  public PostgresStoreBuilder connectionTimeout(Duration value) {
    requireOwnPool("connectionTimeout");
    if (value == null
        || value.compareTo(Duration.ofMillis(500)) < 0
        || value.compareTo(Duration.ofMinutes(5)) > 0) {
      throw new IllegalArgumentException(
          "connectionTimeout: must be between 500ms and 5m, was " + value);
    }
    this.connectionTimeout = value;
    return this;
  }

  /**
   * How long a statement on the store's own pool waits for the database's answer before its
   * connection is given up and the call fails, without a retry, with a {@code StoreException} of
   * SQLState 08006 (connection lost; a COMMIT cut this way is {@code CommitUnknownException});
   * default 30 s, whole seconds from 1 s to 1 h, or {@link Duration#ZERO} to wait forever (a
   * url-built store only). This is what bounds a call while the database hangs without closing
   * connections (stopped, or a network that drops packets): the pool's {@link #connectionTimeout}
   * only bounds getting a connection. Set it above the longest statement the store runs (deleting a
   * queue deletes all its messages in one statement). It does not apply to schema migrations, which
   * run on connections of their own, nor to the LISTEN connection's idle wait. A {@code
   * socketTimeout} in the url takes precedence.
   */
  public PostgresStoreBuilder socketTimeout(Duration value) {
    requireOwnPool("socketTimeout");
    if (value == null
        || value.isNegative()
        || value.compareTo(Duration.ofHours(1)) > 0
        || value.toMillis() % 1000 != 0
        || (!value.isZero() && value.compareTo(Duration.ofSeconds(1)) < 0)) {
      throw new IllegalArgumentException(
          "socketTimeout: must be whole seconds between 1s and 1h, or 0 for no limit, was "
              + value);
    }
    this.socketTimeout = value;
    return this;
  }

  /**
   * {@link MigrationMode#MIGRATE} (default) applies pending migrations on open; {@link
   * MigrationMode#VALIDATE} changes nothing and refuses a schema not at this build's version.
   */
  public PostgresStoreBuilder migrationMode(MigrationMode value) {
    if (value == null) {
      throw new IllegalArgumentException("migrationMode: must not be null");
    }
    this.migrationMode = value;
    return this;
  }

  /** Opens the store: connects, checks or migrates the schema. */
  public PostgresStore build() {
    return withDataSource(
        (source, ownPool) -> {
          SchemaMigrations migrations = migrations(source);
          refuseEarlierDefaultLayout(source);
          migrations.apply(migrationMode);
          return PostgresStore.open(source, ownPool, schema);
        },
        true);
  }

  /**
   * Applies every pending migration without opening a store (what {@code redrive migrate} does).
   *
   * @return the versions applied, oldest first; empty when the schema was current
   */
  public List<String> migrate() {
    return withDataSource(
        (source, ownPool) -> {
          refuseEarlierDefaultLayout(source);
          return migrations(source).migrate();
        },
        false);
  }

  /**
   * The SQL an operator can review and run to bring the schema to this build's version, recording
   * each migration so a store in {@link MigrationMode#VALIDATE} accepts it; changes nothing.
   */
  public String pendingSql() {
    return withDataSource(
        (source, ownPool) ->
            migrations(source)
                .pendingSql(
                    "CREATE SCHEMA IF NOT EXISTS "
                        + schema
                        + ";\nSET search_path TO "
                        + schema
                        + ";",
                    "now()"),
        false);
  }

  /**
   * Migrations run on the supplied data source, or on plain connections to the url: Flyway holds
   * two connections at once, which a small pool of the store's own could not spare. Those have no
   * {@link #socketTimeout}, so a long migration is never cut.
   */
  private SchemaMigrations migrations(DataSource source) {
    DataSource migrating = source;
    if (dataSource == null) {
      PGSimpleDataSource plain = new PGSimpleDataSource();
      UrlCredentials url = UrlCredentials.split(jdbcUrl);
      plain.setURL(url.url());
      if (user(url) != null) {
        plain.setUser(user(url));
      }
      if (password(url) != null) {
        plain.setPassword(password(url));
      }
      migrating = plain;
    }
    return new SchemaMigrations(
        migrating, PostgresStore.MIGRATIONS, schema, "PostgreSQL schema \"" + schema + "\"");
  }

  /**
   * Redrive up to 0.1 kept its tables in the connection's default schema (usually {@code public}).
   * Opening the new default schema beside them would start an empty queue system and strand their
   * messages, so it is refused with the two ways out.
   */
  private void refuseEarlierDefaultLayout(DataSource source) {
    try (Connection c = source.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT current_schema(), to_regclass(quote_ident(current_schema())"
                    + " || '.redrive_queues') IS NOT NULL,"
                    + " to_regclass(quote_ident(?) || '.redrive_queues') IS NOT NULL")) {
      ps.setString(1, schema);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        String current = rs.getString(1);
        boolean earlier = rs.getBoolean(2);
        boolean ours = rs.getBoolean(3);
        if (earlier && !ours && current != null && !current.equals(schema)) {
          throw new StoreException(
              "Redrive tables from an earlier version are in schema \""
                  + current
                  + "\", but this store uses schema \""
                  + schema
                  + "\". Keep them where they are with schema(\""
                  + current
                  + "\") (server: pg-schema = \""
                  + current
                  + "\"), or move them: ALTER TABLE "
                  + current
                  + ".redrive_queues SET SCHEMA "
                  + schema
                  + " (likewise redrive_messages, redrive_history and flyway_schema_history;"
                  + " see docs/engine.md)",
              null,
              false,
              null);
        }
      }
    } catch (SQLException e) {
      throw new StoreException(
          "cannot read the schema of PostgreSQL"
              + (jdbcUrl == null ? "" : " at " + JdbcUrls.mask(jdbcUrl))
              + ": "
              + JdbcUrls.mask(e.getMessage()),
          e.getSQLState(),
          true,
          e);
    }
  }

  /** Runs {@code work} on the supplied data source, or on a pool made for it. */
  private <T> T withDataSource(PoolWork<T> work, boolean keepPool) {
    if (dataSource != null) {
      return work.run(dataSource, null);
    }
    HikariDataSource pool = pool();
    boolean done = false;
    try {
      T result = work.run(pool, pool);
      done = true;
      return result;
    } finally {
      if (!done || !keepPool) {
        pool.close();
      }
    }
  }

  private HikariDataSource pool() {
    HikariConfig hikari = new HikariConfig();
    // The pool and the driver never see a password in the url, so none of their logs can show it.
    UrlCredentials url = UrlCredentials.split(jdbcUrl);
    hikari.setJdbcUrl(url.url());
    hikari.setUsername(user(url));
    hikari.setPassword(password(url));
    hikari.setMaximumPoolSize(poolSize);
    hikari.setPoolName("redrive-postgres");
    hikari.setConnectionTimeout(connectionTimeout.toMillis());
    // HikariCP wants validation shorter than acquisition and at least 250 ms.
    hikari.setValidationTimeout(Math.max(250, Math.min(5_000, connectionTimeout.toMillis() / 2)));
    // Without it a statement on an open connection to a hung database blocks forever. The LISTEN
    // connection's getNotifications(ms) sets its own read timeout while it waits, so an idle
    // listener is not cut; migrations use plain connections without this limit (see migrations).
    hikari.addDataSourceProperty("socketTimeout", String.valueOf(socketTimeout.toSeconds()));
    try {
      return new HikariDataSource(hikari);
    } catch (RuntimeException e) {
      throw new StoreException(
          "cannot connect to PostgreSQL at "
              + JdbcUrls.mask(jdbcUrl)
              + ": "
              + JdbcUrls.mask(rootMessage(e)),
          null,
          true,
          e);
    }
  }

  /**
   * The user: from the url's user-info, else the builder's (a {@code user=} parameter stays in the
   * url and wins in the driver, as before).
   */
  private String user(UrlCredentials url) {
    return url.user() != null ? url.user() : username;
  }

  /** The password: the url's wins, as the driver lets a url parameter win over its properties. */
  private String password(UrlCredentials url) {
    return url.password() != null ? url.password() : password;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }

  private void requireOwnPool(String setting) {
    if (dataSource != null) {
      throw new IllegalArgumentException(
          setting + ": set it on your DataSource; a store built on a DataSource uses it as it is");
    }
  }

  /** Work on a data source; {@code ownPool} is the pool made for it, or null when supplied. */
  @FunctionalInterface
  private interface PoolWork<T> {
    T run(DataSource source, HikariDataSource ownPool);
  }
}
