package io.redrive.jdbc;

/** What a store does with its schema when it opens. */
public enum MigrationMode {
  /** Create the schema if missing and apply every pending migration (the default). */
  MIGRATE,
  /**
   * Change nothing; refuse to open, naming the missing versions, unless the schema is exactly at
   * the version this build needs. For databases whose schema changes are applied by an operator
   * ({@code redrive migrate}, or its {@code --print-sql} output run by a DBA).
   */
  VALIDATE
}
