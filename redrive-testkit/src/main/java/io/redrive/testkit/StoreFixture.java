package io.redrive.testkit;

/**
 * What a store module gives the compliance suite: fresh databases to test on. One fixture per store
 * kind (SQLite, PostgreSQL).
 */
public interface StoreFixture {

  /** A short name for test output, e.g. {@code sqlite}. */
  String name();

  /** A new, empty, isolated database; the test closes it. */
  TestDatabase newDatabase();
}
