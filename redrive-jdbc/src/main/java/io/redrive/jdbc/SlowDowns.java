package io.redrive.jdbc;

import io.redrive.lease.SettleCommand;
import io.redrive.queue.FlowLimits;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The holds of slow-downs ({@link SettleCommand.Abandon#hold}): a settled message's limit key, or
 * its whole queue when it has none, is held for the abandon's delay. Written in the settle's
 * transaction by {@link LockedSettles}; {@link FlowGate} reads the holds when it leases.
 */
final class SlowDowns {
  private SlowDowns() {}

  /** The history note of a slow-down, e.g. {@code slowed down: held key K for 30s}. */
  static String note(MessageRow row, SettleCommand.Abandon a) {
    return "slowed down: held "
        + (row.limitKey() == null ? "queue " + row.queue() : "key " + row.limitKey())
        + " for "
        + text(a.delay().toMillis());
  }

  /** A duration in its largest whole unit ({@code 30s}, {@code 2m}, {@code 1500ms}). */
  private static String text(long ms) {
    long[] units = {86_400_000, 3_600_000, 60_000, 1_000};
    String[] names = {"d", "h", "m", "s"};
    for (int u = 0; u < units.length; u++) {
      if (ms >= units[u] && ms % units[u] == 0) {
        return ms / units[u] + names[u];
      }
    }
    return ms + "ms";
  }

  /**
   * Writes the holds of the slow-downs in {@code held} (locked rows whose commands are abandons
   * with a hold), queue by queue in name order, so concurrent settles take the queue rows in one
   * order.
   */
  static void hold(
      Connection c, List<MessageRows.Locked> held, List<SettleCommand> commands, Instant now)
      throws SQLException {
    Map<String, SettleCommand.Abandon> byId = new java.util.HashMap<>();
    for (SettleCommand command : commands) {
      if (command instanceof SettleCommand.Abandon a && a.hold()) {
        byId.put(a.messageId(), a);
      }
    }
    List<MessageRows.Locked> ordered =
        held.stream().sorted(Comparator.comparing(l -> l.row().queue())).toList();
    for (MessageRows.Locked l : ordered) {
      MessageRow row = l.row();
      SettleCommand.Abandon a = byId.get(row.id());
      FlowLimits limits = l.policy().limits();
      String key = row.limitKey() == null ? FlowBuckets.QUEUE_KEY : row.limitKey();
      var rate = row.limitKey() == null ? limits.rate() : limits.ratePerKey();
      FlowBuckets.hold(
          c, row.queue(), key, rate == null ? 0 : rate.leases(), now, now.plus(a.delay()));
    }
  }
}
