package io.redrive.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.redrive.jdbc.JdbcStore;
import io.redrive.store.ReadySubscription;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/**
 * The PostgreSQL store: many nodes share one database; leasing uses {@code FOR UPDATE SKIP LOCKED},
 * enqueue sends a {@code NOTIFY} on channel {@code redrive_ready} (after its commit, or inside the
 * caller's transaction when enqueued on the caller's connection). Its tables live in their own
 * schema ({@value #DEFAULT_SCHEMA} unless named), with their own migration history, and every
 * statement names that schema, so the store sits beside an application's tables and its own Flyway,
 * and enqueues on the application's connections whatever their search path. Thread-safe.
 */
public final class PostgresStore extends JdbcStore {
  /** The schema Redrive's tables live in unless the builder names another. */
  public static final String DEFAULT_SCHEMA = "redrive";

  /** Where the migration scripts are on the classpath. */
  static final String MIGRATIONS = "db/redrive/postgres";

  private final DataSource dataSource;
  private final HikariDataSource ownPool;
  private final String schema;
  private final ReadyListener listener;
  private final ReadyNotifier notifier;

  private PostgresStore(DataSource dataSource, HikariDataSource ownPool, String schema) {
    super(dataSource, new PostgresDialect(PostgresDialect.channel(schema)), schema);
    this.dataSource = dataSource;
    this.ownPool = ownPool;
    this.schema = schema;
    // Tells this store's notifies from others' on the shared channel; unique enough by chance.
    String tag = Long.toHexString(ThreadLocalRandom.current().nextLong());
    this.listener =
        new ReadyListener(dataSource, PostgresDialect.channel(schema), tag, this::signalReady);
    this.notifier = new ReadyNotifier(dataSource, PostgresDialect.channel(schema), tag);
  }

  /**
   * True when this store runs on {@code candidate}, the application's data source it was built on
   * (never on a pool of its own): its enqueues may then join that data source's transactions.
   */
  public boolean usesDataSource(DataSource candidate) {
    return ownPool == null && candidate != null && dataSource == candidate;
  }

  /** The schema holding this store's tables. */
  public String schema() {
    return schema;
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

  /** A builder for a store on its own connection pool to {@code jdbcUrl}. */
  public static PostgresStoreBuilder builder(String jdbcUrl) {
    return PostgresStoreBuilder.forUrl(jdbcUrl);
  }

  /**
   * A builder for a store on the application's {@code dataSource} (Hikari or any other), which the
   * store never closes. Waiting workers hold one of its connections for {@code LISTEN} (see
   * docs/engine.md); size the pool for it.
   */
  public static PostgresStoreBuilder builder(DataSource dataSource) {
    return PostgresStoreBuilder.forDataSource(dataSource);
  }

  static PostgresStore open(DataSource dataSource, HikariDataSource ownPool, String schema) {
    return new PostgresStore(dataSource, ownPool, schema);
  }

  /**
   * Stops the LISTEN and NOTIFY threads and closes the pool the store made (never a supplied one).
   */
  @Override
  protected void release() {
    notifier.close();
    listener.close();
    if (ownPool != null) {
      ownPool.close();
    }
  }
}
