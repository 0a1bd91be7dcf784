/**
 * The embedded SQLite store: {@link io.redrive.sqlite.SqliteStore}. Its migrations live in {@code
 * db/redrive/sqlite}, a resource-only package that Flyway reads through the class loader, so it is
 * opened (a named module's resources are otherwise hidden).
 */
module io.redrive.sqlite {
  requires transitive io.redrive.jdbc;
  requires com.zaxxer.hikari;
  requires java.logging;
  requires org.xerial.sqlitejdbc;

  exports io.redrive.sqlite;

  opens db.redrive.sqlite;
}
