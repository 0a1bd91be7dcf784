package io.redrive.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.redrive.error.StoreException;
import io.redrive.jdbc.JdbcStore;
import io.redrive.store.ReadySubscription;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * The PostgreSQL store: many nodes share one database; leasing uses {@code FOR UPDATE SKIP LOCKED},
 * enqueue sends a {@code NOTIFY} on channel {@code redrive_ready} (after its commit, or inside the
 * caller's transaction when enqueued on the caller's connection). The schema is migrated on open.
 * Thread-safe.
 */
public final class PostgresStore extends JdbcStore {
  private final HikariDataSource pool;
  private final ReadyListener listener;
  private final ReadyNotifier notifier;

  private PostgresStore(HikariDataSource pool, String schema) {
    super(pool, new PostgresDialect(PostgresDialect.channel(schema)));
    this.pool = pool;
    this.listener = new ReadyListener(pool, PostgresDialect.channel(schema), this::signalReady);
    this.notifier = new ReadyNotifier(pool, PostgresDialect.channel(schema));
  }

  /** Notifies other nodes after the enqueue committed (see {@link ReadyNotifier}). */
  @Override
  protected void messagesCommitted(String queue) {
    notifier.messagesReady(queue);
  }

  /**
   * Also starts (once) a LISTEN on this store's channel, so enqueues on other nodes wake this
   * node's workers.
   */
  @Override
  public ReadySubscription subscribeReady(String queue, Runnable listener) {
    this.listener.start();
    return super.subscribeReady(queue, listener);
  }

  public static Builder builder(String jdbcUrl) {
    return new Builder(jdbcUrl);
  }

  @Override
  public void close() {
    notifier.close();
    listener.close();
    pool.close();
  }

  /** Builds a {@link PostgresStore}; not thread-safe. */
  public static final class Builder {
    private final String jdbcUrl;
    private String username;
    private String password;
    private String schema;
    private int poolSize = 10;

    private Builder(String jdbcUrl) {
      if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
        throw new IllegalArgumentException(
            "pgUrl: must be a PostgreSQL JDBC url (jdbc:postgresql://host:port/db), was \""
                + jdbcUrl
                + "\"");
      }
      this.jdbcUrl = jdbcUrl;
    }

    public Builder username(String value) {
      this.username = value;
      return this;
    }

    public Builder password(String value) {
      this.password = value;
      return this;
    }

    /** The schema holding Redrive's tables (created if missing); default: the search path's. */
    public Builder schema(String value) {
      if (value != null && !value.matches("[a-z_][a-z0-9_]{0,62}")) {
        throw new IllegalArgumentException(
            "schema: use 1-63 characters of a-z, 0-9 and '_', was \"" + value + "\"");
      }
      this.schema = value;
      return this;
    }

    /** Connections in this node's pool, 1–200 (default 10). */
    public Builder poolSize(int value) {
      if (value < 1 || value > 200) {
        throw new IllegalArgumentException("poolSize: must be between 1 and 200, was " + value);
      }
      this.poolSize = value;
      return this;
    }

    public PostgresStore build() {
      HikariConfig hikari = new HikariConfig();
      hikari.setJdbcUrl(jdbcUrl);
      hikari.setUsername(username);
      hikari.setPassword(password);
      hikari.setMaximumPoolSize(poolSize);
      hikari.setPoolName("redrive-postgres");
      if (schema != null) {
        hikari.setSchema(schema);
      }
      HikariDataSource pool;
      try {
        pool = new HikariDataSource(hikari);
      } catch (RuntimeException e) {
        throw new StoreException(
            "cannot connect to PostgreSQL at " + jdbcUrl + ": " + e.getMessage(), null, true, e);
      }
      try {
        FluentConfiguration flyway =
            Flyway.configure().dataSource(pool).locations("classpath:db/redrive/postgres");
        if (schema != null) {
          flyway = flyway.schemas(schema).defaultSchema(schema);
        }
        flyway.load().migrate();
      } catch (RuntimeException e) {
        pool.close();
        throw new StoreException(
            "migrating the PostgreSQL schema failed: " + e.getMessage(), null, false, e);
      }
      return new PostgresStore(pool, schema);
    }
  }
}
