package io.redrive.bench.contender;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The raw-SQL baseline: the least a queue must do per message (insert; claim ready rows while
 * counting the attempt and setting a lease; delete on completion), with no library around it.
 * PostgreSQL uses the statements of {@code bench/raw-sql} verbatim; SQLite their equivalent.
 */
public interface RawQueue {

  /** Creates the {@code jobs} table and its two partial indexes. */
  void createSchema(Connection c) throws SQLException;

  /** Inserts {@code ready} ready rows, {@code scheduled} due in an hour and {@code dead} dead. */
  void fill(Connection c, long ready, long scheduled, long dead) throws SQLException;

  /** One producer on its own connection; each call inserts {@code batch} rows in one statement. */
  Producer producer(Connection c, int batch) throws SQLException;

  /** One consumer on its own connection claiming up to {@code n} rows per cycle. */
  Consumer consumer(Connection c, int n, int clientId) throws SQLException;

  /** Inserts a fixed batch of rows per call. */
  interface Producer {
    void insert() throws SQLException;
  }

  /** Claims then deletes (two transactions per cycle). */
  interface Consumer {
    /** One cycle; returns how many rows it claimed and deleted (0 when none was ready). */
    int cycle() throws SQLException;
  }
}
