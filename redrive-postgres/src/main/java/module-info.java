/**
 * The PostgreSQL store: {@link io.redrive.postgres.PostgresStore}. Its migrations live in {@code
 * db/redrive/postgres}, found by Flyway through the class loader (see the SQLite module's note).
 */
module io.redrive.postgres {
  requires transitive io.redrive.jdbc;
  requires com.zaxxer.hikari;
  requires flyway.database.postgresql;
  requires org.postgresql.jdbc;
  requires org.slf4j;

  exports io.redrive.postgres;
}
