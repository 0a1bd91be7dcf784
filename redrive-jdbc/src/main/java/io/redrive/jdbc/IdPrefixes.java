package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.TreeSet;

/**
 * Ids that start with a prefix: messages stored in a queue and completed messages whose story is
 * kept (so the id an enqueue returned still resolves after completion). Each is a range scan of a
 * unique id index: ids are lower-case hex and '-', so {@code prefix + '~'} bounds the range.
 */
final class IdPrefixes {
  private IdPrefixes() {}

  /** Up to {@code limit} ids in id order; {@code queue} null for any queue. */
  static List<String> find(Connection c, String prefix, String queue, int limit)
      throws SQLException {
    TreeSet<String> ids = new TreeSet<>();
    read(
        c,
        "SELECT id FROM redrive_messages WHERE id >= ? AND id < ?",
        "queue",
        prefix,
        queue,
        limit,
        ids);
    read(
        c,
        "SELECT message_id FROM redrive_completions WHERE kept_until IS NOT NULL"
            + " AND message_id >= ? AND message_id < ?",
        "queue",
        prefix,
        queue,
        limit,
        ids);
    return ids.stream().limit(limit).toList();
  }

  private static void read(
      Connection c,
      String select,
      String queueColumn,
      String prefix,
      String queue,
      int limit,
      TreeSet<String> into)
      throws SQLException {
    String idColumn = select.substring("SELECT ".length(), select.indexOf(' ', 7));
    String sql =
        select
            + (queue == null ? "" : " AND " + queueColumn + " = ?")
            + " ORDER BY "
            + idColumn
            + " LIMIT ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int i = 1;
      ps.setString(i++, prefix);
      ps.setString(i++, prefix + "~");
      if (queue != null) {
        ps.setString(i++, queue);
      }
      ps.setInt(i, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          into.add(rs.getString(1));
        }
      }
    }
  }
}
