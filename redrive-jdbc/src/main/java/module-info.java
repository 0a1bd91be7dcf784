/**
 * The JDBC layer both stores share: {@link io.redrive.jdbc.JdbcStore}, its {@link
 * io.redrive.jdbc.SqlDialect} SPI and schema migrations. Its internals are package-private, so the
 * one package is exported whole.
 */
module io.redrive.jdbc {
  requires transitive io.redrive;
  requires transitive java.sql;
  requires com.fasterxml.jackson.databind;
  requires flyway.core;
  requires org.slf4j;

  exports io.redrive.jdbc;
}
