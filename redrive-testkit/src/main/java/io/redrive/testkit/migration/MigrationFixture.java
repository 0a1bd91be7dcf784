package io.redrive.testkit.migration;

/**
 * What a store module gives the migration contract: whole, empty databases that a test shapes
 * (application tables, an application's Flyway, an earlier Redrive layout) before Redrive opens
 * them.
 */
public interface MigrationFixture {

  /** A short name for test output, e.g. {@code sqlite}. */
  String name();

  /** A new, empty database (PostgreSQL: a database of its own; SQLite: a new file). */
  MigrationDatabase newDatabase();
}
