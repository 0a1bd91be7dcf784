package io.redrive.sqlite;

import io.redrive.jdbc.SqlDialect;
import io.redrive.message.PayloadField;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * SQLite's single-writer discipline: one write transaction at a time per database file in this
 * process (a fair lock shared by every store on the file), {@code BEGIN IMMEDIATE} plus a busy
 * timeout against writers in other processes. No row locks are needed: a write transaction already
 * excludes every other writer.
 */
final class SqliteDialect implements SqlDialect {
  private static final ConcurrentMap<Path, ReentrantLock> WRITERS = new ConcurrentHashMap<>();
  private static final int SQLITE_BUSY = 5;
  private static final int SQLITE_LOCKED = 6;
  private static final int SQLITE_CONSTRAINT = 19;

  private final ReentrantLock writer;

  SqliteDialect(Path file) {
    this.writer =
        WRITERS.computeIfAbsent(file.toAbsolutePath().normalize(), f -> new ReentrantLock(true));
  }

  @Override
  public String lockRows(String alias) {
    return "";
  }

  @Override
  public String lockRowsSkipLocked(String alias) {
    return "";
  }

  /** In-process: a cached one-row statement per row beats a wide join (measured). */
  @Override
  public boolean batchesRowByRow() {
    return true;
  }

  @Override
  public AutoCloseable beforeWrite(Connection connection) {
    writer.lock();
    return writer::unlock;
  }

  @Override
  public boolean isTransient(SQLException e) {
    int primary = e.getErrorCode() & 0xff;
    return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return (e.getErrorCode() & 0xff) == SQLITE_CONSTRAINT;
  }

  /**
   * {@code json_valid} first, since {@code json_type} and {@code json_extract} raise an error on a
   * payload that is not JSON; {@code json_extract} gives a number as a number, so it is cast to
   * text to compare as PostgreSQL's {@code #>>} does, and a boolean (1 or 0 there) is named by its
   * JSON type instead.
   */
  @Override
  public void payloadFieldEquals(
      Connection connection, PayloadField field, StringBuilder sql, List<Object> args) {
    sql.append(
        "(CASE WHEN json_valid(m.payload) THEN CASE"
            + " WHEN json_type(m.payload, ?) IN ('text', 'integer', 'real')"
            + " THEN CAST(json_extract(m.payload, ?) AS TEXT)"
            + " WHEN json_type(m.payload, ?) IN ('true', 'false') THEN json_type(m.payload, ?)"
            + " END END) = ?");
    // The names are [A-Za-z0-9_-] (PayloadField checks), so quoting each needs no escapes.
    StringBuilder path = new StringBuilder("$");
    for (String name : field.names()) {
      path.append(".\"").append(name).append('"');
    }
    for (int i = 0; i < 4; i++) {
      args.add(path.toString());
    }
    args.add(field.value());
  }
}
