/**
 * The JDBC layer both stores share: {@link io.redrive.jdbc.JdbcStore}, its {@link
 * io.redrive.jdbc.SqlDialect} SPI and schema migrations. The queue statements' internals are
 * package-private, so their package is exported whole; the workflow statements ({@code
 * io.redrive.jdbc.workflow}) and the seam between the two ({@code io.redrive.jdbc.owned}) are
 * closed: only this module uses them.
 */
module io.redrive.jdbc {
  requires transitive io.redrive;
  requires transitive java.sql;
  requires com.fasterxml.jackson.databind;
  requires flyway.core;
  requires org.slf4j;

  exports io.redrive.jdbc;
}
