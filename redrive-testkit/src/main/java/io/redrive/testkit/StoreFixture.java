package io.redrive.testkit;

import io.redrive.store.Store;
import java.util.Map;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * What a store module gives the compliance suite: fresh databases to test on. One fixture per store
 * kind (SQLite, PostgreSQL).
 */
public interface StoreFixture {

  /** A short name for test output, e.g. {@code sqlite}. */
  String name();

  /** A new, empty, isolated database; the test closes it. */
  TestDatabase newDatabase();

  /**
   * Opens a store on an existing database described by {@link TestDatabase#address()}, typically in
   * another JVM (a child worker process): it must neither create nor drop the database, nor start a
   * server of its own. The caller closes the store.
   *
   * @throws UnsupportedOperationException if this fixture's databases cannot be shared
   */
  default Store attach(Map<String, String> properties) {
    throw new UnsupportedOperationException(name() + " databases cannot be attached to");
  }

  /**
   * As {@link #attach(Map)}, with the store's connections coming through {@code wrap} of the
   * fixture's data source (a child process's fault injection).
   *
   * @throws UnsupportedOperationException if this fixture cannot wrap its data source
   */
  default Store attach(Map<String, String> properties, UnaryOperator<DataSource> wrap) {
    throw new UnsupportedOperationException(name() + " databases cannot be attached to wrapped");
  }
}
