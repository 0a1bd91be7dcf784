package io.redrive.jdbc;

import io.redrive.lease.LeaseHolder;
import io.redrive.message.MessageLink;
import io.redrive.message.MessageState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where messages and leases are: the links of a message's lineage (by id, source id and origin id)
 * and the workers holding leases on a queue. Each read is one index lookup or one indexed scan of a
 * queue's leased messages.
 */
final class Whereabouts {
  /** The message {@code id} and the copies that lead from it (see {@code Store.findLinks}). */
  List<MessageLink> links(Connection c, String id) throws SQLException {
    Map<Long, MessageLink> bySeq = new TreeMap<>();
    // Three statements rather than an OR: each is one index lookup on either store.
    for (String column : new String[] {"id", "source_id", "origin_id"}) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT seq, id, queue, state, source_id, source_queue, origin_id, origin_queue"
                  + " FROM redrive_messages WHERE "
                  + column
                  + " = ?")) {
        ps.setString(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            bySeq.put(
                rs.getLong(1),
                new MessageLink(
                    rs.getString(2),
                    rs.getString(3),
                    MessageState.valueOf(rs.getString(4)),
                    rs.getString(5),
                    rs.getString(6),
                    rs.getString(7),
                    rs.getString(8)));
          }
        }
      }
    }
    List<MessageLink> out = new ArrayList<>(bySeq.values());
    out.addAll(completed(c, id));
    return out;
  }

  /**
   * The kept completed messages among the links: a story ends with its completion, so they come
   * after every stored one, by completion time. A record the completion window alone keeps is not a
   * story and not a link.
   */
  private static List<MessageLink> completed(Connection c, String id) throws SQLException {
    Map<String, MessageLink> byId = new java.util.LinkedHashMap<>();
    for (String column : new String[] {"message_id", "origin_id"}) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT message_id, queue, source_id, source_queue, origin_id, origin_queue"
                  + " FROM redrive_completions WHERE "
                  + column
                  + " = ? AND kept_until IS NOT NULL ORDER BY completed_at")) {
        ps.setString(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            byId.putIfAbsent(
                rs.getString(1),
                new MessageLink(
                    rs.getString(1),
                    rs.getString(2),
                    MessageState.COMPLETED,
                    rs.getString(3),
                    rs.getString(4),
                    rs.getString(5),
                    rs.getString(6)));
          }
        }
      }
    }
    return new ArrayList<>(byId.values());
  }

  List<LeaseHolder> leaseHolders(Connection c, String queue, Instant now) throws SQLException {
    List<LeaseHolder> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT leased_by, type, COUNT(*),"
                + " SUM(CASE WHEN visible_at <= ? THEN 1 ELSE 0 END),"
                + " MIN(leased_at), MAX(leased_at)"
                + " FROM redrive_messages WHERE queue = ? AND state = 'LEASED'"
                + " GROUP BY leased_by, type ORDER BY leased_by, type")) {
      ps.setLong(1, now.toEpochMilli());
      ps.setString(2, queue);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(
              new LeaseHolder(
                  rs.getString(1),
                  queue,
                  rs.getString(2),
                  rs.getLong(3),
                  rs.getLong(4),
                  Instant.ofEpochMilli(rs.getLong(5)),
                  Instant.ofEpochMilli(rs.getLong(6))));
        }
      }
    }
    return out;
  }
}
