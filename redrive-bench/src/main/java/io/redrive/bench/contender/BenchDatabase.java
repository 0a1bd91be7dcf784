package io.redrive.bench.contender;

import io.redrive.store.Store;
import java.sql.Connection;
import java.util.List;

/**
 * One run's isolated database. Redrive stores opened here share it (each PostgreSQL store is one
 * node); {@link #connect()} gives plain JDBC for the baseline and bulk fills. Closing drops it.
 */
public interface BenchDatabase extends AutoCloseable {

  /** A Redrive store on this database (its schema migrated on first open). */
  Store openStore(int poolSize);

  /** A plain JDBC connection with the same settings as the stores', autocommit on. */
  Connection connect();

  /** The JDBC url {@link #connect()} opens (on PostgreSQL with this database's schema). */
  String url();

  /** The baseline statements in this database's dialect. */
  RawQueue raw();

  /**
   * Inserts Redrive rows directly: {@code ready} visible now, {@code scheduled} visible in an hour
   * and {@code dead} dead, all of {@code type} on {@code queue} with the given payload.
   */
  void fillMessages(
      String queue, String type, String payload, long ready, long scheduled, long dead);

  /** Bytes used by {@code table} with its indexes (the whole file for SQLite). */
  long tableBytes(String table);

  /** Dead tuples of {@code table}, or -1 where the database has no such notion. */
  long deadTuples(String table);

  /** Statistics refresh after a bulk fill (ANALYZE), so plans match a table grown by use. */
  void analyze(List<String> tables);

  /**
   * Forgets what the database ran so far, so that {@link #statements()} tells about what runs next.
   * Does nothing where the database keeps no statement statistics.
   */
  default void resetStatements() {}

  /** What the database ran since {@link #resetStatements()}, or null where it cannot tell. */
  default StatementStats statements() {
    return null;
  }

  @Override
  void close();
}
