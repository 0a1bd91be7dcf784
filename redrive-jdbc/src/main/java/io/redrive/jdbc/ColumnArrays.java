package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;

/**
 * New message rows as one array per column, for a dialect that inserts that way ({@link
 * SqlDialect#insertsByColumnArrays}): the rows of {@code unnest(…) WITH ORDINALITY} joined to their
 * queue, in the order of the list, as {@link MessageRows}' {@code VALUES} form does.
 *
 * <p>Implementation notes. A batch of 1 000 messages as a {@code VALUES} list binds 21 000
 * parameters, which the server parses and plans one by one; as arrays it binds 21, each parsed by
 * the array input function in one pass.
 */
final class ColumnArrays {
  /** The columns of {@link MessageRows.NewRow} in order, with their SQL array types. */
  private static final String UNNEST =
      "unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]),"
          + " CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS integer[]),"
          + " CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[]), CAST(? AS bigint[]),"
          + " CAST(? AS text[]), CAST(? AS bigint[]), CAST(? AS text[]), CAST(? AS text[]),"
          + " CAST(? AS text[]), CAST(? AS integer[]), CAST(? AS bigint[]),"
          + " CAST(? AS text[]), CAST(? AS text[]))"
          + " WITH ORDINALITY AS v(id, queue, type, payload, headers, stream,"
          + " state, attempts, progress, enqueued_at, visible_at, expire_at, dead_reason, dead_at,"
          + " source_id, source_queue, dedupe_key, priority, head_start, limit_key,"
          + " unique_key, n)";

  /** The rows joined to their queue; {@code WHERE true} is where the caller adds its condition. */
  static final String INTO_QUEUE =
      "SELECT v.id, v.queue, v.type, v.payload, v.headers, v.stream, v.state, v.attempts,"
          + " v.progress, v.enqueued_at, v.visible_at,"
          + " COALESCE(v.expire_at, v.enqueued_at + q.expire_after_ms), v.dead_reason, v.dead_at,"
          + " v.source_id, v.source_queue, v.dedupe_key, "
          + MessageRows.priorityOf("v.priority", "v.head_start")
          + ", v.limit_key, v.unique_key FROM "
          + UNNEST
          + " JOIN redrive_queues q ON q.name = v.queue WHERE true ORDER BY v.n";

  private ColumnArrays() {}

  /** Binds the rows' columns as 21 arrays from parameter 1 on. */
  static void bind(Connection c, PreparedStatement ps, List<MessageRows.NewRow> rows)
      throws SQLException {
    int i = 1;
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::id));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::queue));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::type));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::payload));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::headers));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::stream));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::state));
    ps.setArray(i++, c.createArrayOf("integer", of(rows, MessageRows.NewRow::attempts)));
    ps.setArray(i++, longs(c, rows, MessageRows.NewRow::progress));
    ps.setArray(i++, longs(c, rows, MessageRows.NewRow::enqueuedAt));
    ps.setArray(i++, longs(c, rows, MessageRows.NewRow::visibleAt));
    ps.setArray(i++, longs(c, rows, MessageRows.NewRow::expireAt));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::deadReason));
    ps.setArray(i++, longs(c, rows, MessageRows.NewRow::deadAt));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::sourceId));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::sourceQueue));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::dedupeKey));
    ps.setArray(i++, c.createArrayOf("integer", of(rows, MessageRows.NewRow::priority)));
    ps.setArray(i++, longs(c, rows, MessageRows.NewRow::headStart));
    ps.setArray(i++, texts(c, rows, MessageRows.NewRow::limitKey));
    ps.setArray(i, texts(c, rows, MessageRows.NewRow::uniqueKey));
  }

  private static java.sql.Array texts(
      Connection c, List<MessageRows.NewRow> rows, Function<MessageRows.NewRow, String> column)
      throws SQLException {
    return c.createArrayOf("text", rows.stream().map(column).toArray(String[]::new));
  }

  private static java.sql.Array longs(
      Connection c, List<MessageRows.NewRow> rows, Function<MessageRows.NewRow, Long> column)
      throws SQLException {
    return c.createArrayOf("bigint", of(rows, column));
  }

  private static Object[] of(
      List<MessageRows.NewRow> rows, Function<MessageRows.NewRow, ? extends Number> column) {
    return rows.stream().map(column).toArray();
  }
}
