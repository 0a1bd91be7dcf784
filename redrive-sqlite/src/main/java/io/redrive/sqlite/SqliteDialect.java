package io.redrive.sqlite;

import io.redrive.jdbc.SqlDialect;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
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
}
