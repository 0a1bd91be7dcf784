/**
 * The PostgreSQL store: {@link io.redrive.postgres.PostgresStore}. Its migrations live in {@code
 * db/redrive/postgres}, a resource-only package that Flyway reads through the class loader, so it
 * is opened (a named module's resources are otherwise hidden).
 */
module io.redrive.postgres {
  requires transitive io.redrive.jdbc;
  requires com.zaxxer.hikari;
  requires flyway.database.postgresql;
  requires org.postgresql.jdbc;
  requires org.slf4j;

  exports io.redrive.postgres;

  opens db.redrive.postgres;
}
