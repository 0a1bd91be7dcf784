package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.TreeSet;

/**
 * The lock order of an enqueue that meets several keys. A batch inserts its rows in the batch's
 * order (their order of service), and each insert of a row with a unique or dedupe key waits for a
 * concurrent transaction holding that key's index entry; two batches sharing keys in different
 * orders could so wait for each other (a deadlock, rolled back and retried, but each round trip is
 * lost work). Before its first insert such an enqueue takes a lock per key in one fixed order
 * ({@link SqlDialect#lockKeys}, by the key's hash, the same in every JVM), so the second batch
 * waits at the first key they share until the first commits. An enqueue of one key needs no lock.
 */
final class KeyLocks {
  private KeyLocks() {}

  /** Locks the keys of {@code rows} when they hold two or more (unique and dedupe keys apart). */
  static void lock(SqlDialect dialect, Connection c, List<MessageRows.NewRow> rows)
      throws SQLException {
    TreeSet<Integer> keys = new TreeSet<>();
    for (MessageRows.NewRow row : rows) {
      if (row.uniqueKey() != null) {
        keys.add(("u\u0000" + row.queue() + '\u0000' + row.uniqueKey()).hashCode());
      }
      if (row.dedupeKey() != null) {
        keys.add(("d\u0000" + row.queue() + '\u0000' + row.dedupeKey()).hashCode());
      }
    }
    if (keys.size() < 2) {
      return;
    }
    dialect.lockKeys(c, keys.stream().mapToInt(Integer::intValue).toArray());
  }
}
