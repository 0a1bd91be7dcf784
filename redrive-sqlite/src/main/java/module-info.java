/**
 * The embedded SQLite store: {@link io.redrive.sqlite.SqliteStore}. Its migrations live in {@code
 * db/redrive/sqlite}, which Flyway finds through the class loader; the stores always run them on
 * the class path (the shaded jars and the test suites), where resources are not encapsulated.
 */
module io.redrive.sqlite {
  requires transitive io.redrive.jdbc;
  requires com.zaxxer.hikari;
  requires java.logging;
  requires org.xerial.sqlitejdbc;

  exports io.redrive.sqlite;
}
