package io.redrive.jdbc;

import io.redrive.deadletter.RedrivePosition;
import io.redrive.deadletter.StreamOrder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Puts redriven messages of a stream back in their place among the stream's waiting messages
 * (docs/engine.md, "Redrive and stream order"; design decision 37), inside the redrive's
 * transaction ({@link Operating#redrive}).
 *
 * <p>Implementation notes. A stream's order is its messages' {@code seq} (the stream head rule
 * compares seqs), and a redriven row keeps the seq its dead-letter copy got, so it would queue
 * behind every message that was waiting when it died. The repair takes the seqs that the stream's
 * READY messages in the target queue hold (the redriven ones included) and hands the same seqs out
 * again in the wanted order: no new seq is drawn, so a message enqueued while the redrive runs (a
 * higher seq) stays behind all of them, and the queue's other messages keep theirs. The original
 * order of a redriven message is its first id ({@code origin_id}, else its id: UUIDv7, ordered by
 * enqueue time), compared with the waiting messages' first ids; the waiting messages keep their
 * relative order. LEASED messages are not moved (they are running). Rows are locked in id order,
 * and renumbered through negative seqs so no two rows ever share one.
 */
final class StreamRepair {
  private final SqlDialect dialect;

  StreamRepair(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /** A message moved back: its id, stream and where it goes. */
  record Redriven(String id, String stream, String target) {}

  private record Entry(String id, long seq, long first) {}

  /**
   * Orders each stream that {@code moved} puts messages back into; with {@code dryRun} only answers
   * the order (the moved rows are still in the dead-letter queue then).
   */
  List<StreamOrder> apply(
      Connection c, List<Redriven> moved, RedrivePosition position, boolean dryRun)
      throws SQLException {
    Map<List<String>, List<String>> groups = new LinkedHashMap<>();
    for (Redriven r : moved) {
      if (r.stream() != null) {
        groups.computeIfAbsent(List.of(r.target(), r.stream()), k -> new ArrayList<>()).add(r.id());
      }
    }
    List<StreamOrder> orders = new ArrayList<>();
    for (Map.Entry<List<String>, List<String>> g : groups.entrySet()) {
      String queue = g.getKey().get(0);
      String stream = g.getKey().get(1);
      Set<String> ids = Set.copyOf(g.getValue());
      List<Entry> waiting = new ArrayList<>();
      List<Entry> back = new ArrayList<>();
      for (Entry e : waiting(c, queue, stream, !dryRun)) {
        (ids.contains(e.id()) ? back : waiting).add(e);
      }
      if (dryRun) {
        back = byIds(c, ids);
      }
      back.sort(Comparator.comparingLong(Entry::first).thenComparingLong(Entry::seq));
      List<Entry> order =
          position == RedrivePosition.END ? concat(waiting, back) : merge(waiting, back);
      if (!dryRun) {
        renumber(c, order);
      }
      orders.add(
          new StreamOrder(
              queue,
              stream,
              order.stream().map(Entry::id).toList(),
              back.stream().map(Entry::id).toList()));
    }
    return orders;
  }

  /** The stream's READY messages in the queue, in seq order (locked in id order when asked). */
  private List<Entry> waiting(Connection c, String queue, String stream, boolean lock)
      throws SQLException {
    List<Entry> rows = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT m.id, m.seq, COALESCE(m.origin_seq, m.seq) FROM redrive_messages m"
                + " WHERE m.queue = ? AND m.stream = ? AND m.state = 'READY' ORDER BY m.id "
                + (lock ? dialect.lockRows("m") : ""))) {
      ps.setString(1, queue);
      ps.setString(2, stream);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(new Entry(rs.getString(1), rs.getLong(2), rs.getLong(3)));
        }
      }
    }
    rows.sort(Comparator.comparingLong(Entry::seq));
    return rows;
  }

  private static List<Entry> byIds(Connection c, Set<String> ids) throws SQLException {
    List<Entry> rows = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, seq, COALESCE(origin_seq, seq) FROM redrive_messages WHERE id IN ("
                + ids.stream().map(i -> "?").collect(Collectors.joining(", "))
                + ")")) {
      int i = 1;
      for (String id : ids) {
        ps.setString(i++, id);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(new Entry(rs.getString(1), rs.getLong(2), rs.getLong(3)));
        }
      }
    }
    return rows;
  }

  private static List<Entry> concat(List<Entry> first, List<Entry> then) {
    List<Entry> all = new ArrayList<>(first);
    all.addAll(then);
    return all;
  }

  /** Each redriven message goes ahead of the first waiting one enqueued after it. */
  private static List<Entry> merge(List<Entry> waiting, List<Entry> back) {
    List<Entry> all = new ArrayList<>();
    int b = 0;
    for (Entry w : waiting) {
      while (b < back.size() && back.get(b).first() < w.first()) {
        all.add(back.get(b++));
      }
      all.add(w);
    }
    all.addAll(back.subList(b, back.size()));
    return all;
  }

  /** Hands the rows' own seqs out again in {@code order}; nothing when already in order. */
  private static void renumber(Connection c, List<Entry> order) throws SQLException {
    List<Long> seqs = order.stream().map(Entry::seq).sorted().toList();
    boolean inOrder = true;
    for (int i = 0; i < order.size(); i++) {
      inOrder &= order.get(i).seq() == seqs.get(i);
    }
    if (inOrder) {
      return;
    }
    try (PreparedStatement ps =
            c.prepareStatement("UPDATE redrive_messages SET seq = ? WHERE id = ?");
        PreparedStatement aside =
            c.prepareStatement(
                "UPDATE redrive_messages SET origin_seq = COALESCE(origin_seq, seq), seq = ?"
                    + " WHERE id = ?")) {
      for (Entry e : order) {
        aside.setLong(1, -e.seq());
        aside.setString(2, e.id());
        aside.executeUpdate();
      }
      for (int i = 0; i < order.size(); i++) {
        ps.setLong(1, seqs.get(i));
        ps.setString(2, order.get(i).id());
        ps.executeUpdate();
      }
    }
  }
}
