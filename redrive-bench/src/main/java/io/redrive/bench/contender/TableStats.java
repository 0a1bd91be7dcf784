package io.redrive.bench.contender;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sizes and vacuum statistics of tables of one PostgreSQL schema (the connection's current schema),
 * read from {@code pg_class}, {@code pg_stat_user_tables} and {@code pg_stat_user_indexes}: what a
 * soak samples to tell whether a table levels off. The statistics views lag the writes by up to a
 * second (a backend reports at most once a second while busy); the sizes do not.
 */
public final class TableStats {
  /**
   * One table at one moment.
   *
   * @param table its name
   * @param totalBytes {@code pg_total_relation_size}: heap, indexes and TOAST
   * @param heapBytes {@code pg_relation_size}: the heap's main fork
   * @param indexBytes {@code pg_indexes_size}
   * @param liveTuples {@code n_live_tup}
   * @param deadTuples {@code n_dead_tup}
   * @param updates {@code n_tup_upd} since the table was created
   * @param hotUpdates {@code n_tup_hot_upd}: the updates that wrote no index entry
   * @param autovacuums {@code autovacuum_count}
   * @param lastAutovacuum {@code last_autovacuum}, or null when it never ran
   * @param indexes each index's {@code pg_relation_size}, by name
   */
  public record Table(
      String table,
      long totalBytes,
      long heapBytes,
      long indexBytes,
      long liveTuples,
      long deadTuples,
      long updates,
      long hotUpdates,
      long autovacuums,
      Instant lastAutovacuum,
      Map<String, Long> indexes) {}

  private static final String TABLES =
      "SELECT c.relname, pg_total_relation_size(c.oid), pg_relation_size(c.oid),"
          + " pg_indexes_size(c.oid), s.n_live_tup, s.n_dead_tup, s.n_tup_upd, s.n_tup_hot_upd,"
          + " s.autovacuum_count, s.last_autovacuum"
          + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
          + " LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid"
          + " WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY (?)"
          + " ORDER BY c.relname";
  private static final String INDEXES =
      "SELECT i.relname, i.indexrelname, pg_relation_size(i.indexrelid)"
          + " FROM pg_stat_user_indexes i"
          + " WHERE i.schemaname = current_schema() AND i.relname = ANY (?)"
          + " ORDER BY i.relname, i.indexrelname";

  private TableStats() {}

  /** The named tables of the connection's current schema; a table that is not there is left out. */
  public static List<Table> read(Connection connection, List<String> tables) {
    try (PreparedStatement t = connection.prepareStatement(TABLES);
        PreparedStatement i = connection.prepareStatement(INDEXES)) {
      Array names = connection.createArrayOf("text", tables.toArray());
      i.setArray(1, names);
      Map<String, Map<String, Long>> indexes = new LinkedHashMap<>();
      try (ResultSet rs = i.executeQuery()) {
        while (rs.next()) {
          indexes
              .computeIfAbsent(rs.getString(1), k -> new LinkedHashMap<>())
              .put(rs.getString(2), rs.getLong(3));
        }
      }
      t.setArray(1, names);
      List<Table> out = new ArrayList<>();
      try (ResultSet rs = t.executeQuery()) {
        while (rs.next()) {
          Timestamp vacuumed = rs.getTimestamp(10);
          out.add(
              new Table(
                  rs.getString(1),
                  rs.getLong(2),
                  rs.getLong(3),
                  rs.getLong(4),
                  rs.getLong(5),
                  rs.getLong(6),
                  rs.getLong(7),
                  rs.getLong(8),
                  rs.getLong(9),
                  vacuumed == null ? null : vacuumed.toInstant(),
                  Map.copyOf(indexes.getOrDefault(rs.getString(1), Map.of()))));
        }
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException("reading table statistics failed: " + e.getMessage(), e);
    }
  }
}
