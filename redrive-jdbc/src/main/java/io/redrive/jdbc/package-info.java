/**
 * The JDBC machinery both stores share: transactions, the statements they have in common and the
 * lease, settle and dead-letter procedures. Each store supplies a {@link
 * io.redrive.jdbc.SqlDialect} and its own schema.
 */
package io.redrive.jdbc;
