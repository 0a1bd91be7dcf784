package io.redrive.testkit;

import io.redrive.store.Store;
import java.sql.Connection;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * One fresh, empty database (or schema) for one test, from a {@link StoreFixture}. Several stores
 * opened on it act as several nodes sharing the database.
 */
public interface TestDatabase extends AutoCloseable {

  /** Opens a store (its own connection pool: one "node") on this database, schema migrated. */
  Store openStore();

  /**
   * Opens a store whose connections come through {@code wrap}'s data source (for fault injection,
   * e.g. {@link io.redrive.testkit.fault.StatementFailingDataSource}); schema migrated.
   */
  Store openStore(UnaryOperator<DataSource> wrap);

  /** A plain JDBC connection to this database, for transactional-enqueue tests; caller closes. */
  Connection connect();

  /**
   * How another process opens a store on this same database (see {@link DatabaseAddress#open()}).
   *
   * @throws UnsupportedOperationException if this database cannot be shared with other processes
   */
  default DatabaseAddress address() {
    throw new UnsupportedOperationException(getClass().getName() + " has no address");
  }

  /** Closes every store opened here and releases the database. */
  @Override
  void close();
}
