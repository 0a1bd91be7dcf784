package io.redrive.jdbc;

import io.redrive.lease.LeasedMessage;
import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveKind;
import io.redrive.store.ObjectiveStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this node's objectives saw and has not yet written (docs/engine.md, "Objectives"): LATENCY
 * objectives count each first lease within or beyond their bound here, after the lease committed,
 * and the counts are written every {@link PendingCounts#INTERVAL} in one transaction of their own,
 * like the throughput counters, and before every read of them on this node.
 *
 * <p>Implementation notes. The hot path must not pay for objectives it does not have: the declared
 * objectives are read at most once per {@link ObjectiveStore#DECLARATIONS_TTL_SECONDS} per node (on
 * the first lease after that time) and kept by queue; a lease of a queue without a LATENCY
 * objective then costs one map lookup. A save or delete on this node drops the copy at once; other
 * nodes see it within the TTL. The writing thread exists only while counts wait. Thread-safe.
 */
final class ObjectiveCounts implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ObjectiveCounts.class);

  /** A counter row without its slot: one objective's counts of one minute. */
  record Key(String objective, long minute) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int byName = objective.compareTo(o.objective);
      return byName != 0 ? byName : Long.compare(minute, o.minute);
    }
  }

  /** The LATENCY objectives by queue, and when (System.nanoTime) they were read. */
  private record Declared(Map<String, List<Objective>> latency, long readAt) {}

  private static final long[] WITHIN = {1, 0};
  private static final long[] BEYOND = {0, 1};

  private final Transactions tx;
  private final ObjectiveRows rows;
  private final PendingCounts<Key> counts;
  private volatile Declared declared;

  ObjectiveCounts(Transactions tx, ObjectiveRows rows) {
    this.tx = tx;
    this.rows = rows;
    this.counts = new PendingCounts<>(tx, "objective counts", rows::add);
  }

  /** Forgets the declarations read, so that the next lease reads them again. */
  void forgetDeclarations() {
    declared = null;
  }

  /** Counts the first leases among {@code leased} for the LATENCY objectives they match. */
  void leased(List<LeasedMessage> leased, Instant now) {
    if (leased.isEmpty()) {
      return;
    }
    List<Objective> objectives = latencyObjectives().get(leased.get(0).queue());
    if (objectives == null) {
      return;
    }
    long minute = ObjectiveRows.minuteOf(now);
    for (LeasedMessage m : leased) {
      if (m.attempt() != 1) {
        continue;
      }
      Duration wait = Duration.between(m.readyAt(), now);
      for (Objective o : objectives) {
        if (matches(o, m.type(), m.stream())) {
          add(new Key(o.name(), minute), wait.compareTo(o.bound()) <= 0);
        }
      }
    }
  }

  /** Counts {@code objective}'s minute of {@code now} within or beyond (an AGE sample). */
  void sampled(Objective objective, Instant now, boolean within) {
    add(new Key(objective.name(), ObjectiveRows.minuteOf(now)), within);
  }

  private static boolean matches(Objective o, String type, String stream) {
    return (o.type() == null || o.type().equals(type))
        && (o.stream() == null || o.stream().equals(stream));
  }

  private void add(Key key, boolean within) {
    counts.add(key, within ? WITHIN : BEYOND);
  }

  private Map<String, List<Objective>> latencyObjectives() {
    Declared d = declared;
    long nanos = System.nanoTime();
    if (d == null
        || nanos - d.readAt() > TimeUnit.SECONDS.toNanos(ObjectiveStore.DECLARATIONS_TTL_SECONDS)) {
      try {
        Map<String, List<Objective>> byQueue =
            tx.read("read objectives", rows::list).stream()
                .filter(o -> o.kind() == ObjectiveKind.LATENCY)
                .collect(Collectors.groupingBy(Objective::queue));
        d = new Declared(byQueue, nanos);
        declared = d;
      } catch (RuntimeException e) {
        // The lease already committed: an unreadable declaration must not fail it.
        LOG.warn("could not read objectives; leases are not counted until they can be read", e);
        return d == null ? Map.of() : d.latency();
      }
    }
    return d.latency();
  }

  /** Writes every pending count in one transaction; on failure they stay pending. */
  void write() {
    counts.write();
  }

  /**
   * Runs {@code deletion} of objective {@code name} with its pending counts dropped and no write
   * under way, so that no count of the deleted objective is written after it.
   */
  <T> T forgetting(String name, java.util.function.Supplier<T> deletion) {
    return counts.forgetting(k -> k.objective().equals(name), deletion);
  }

  /** Writes what is pending (once, best effort) and stops the writing thread. */
  @Override
  public void close() {
    counts.close();
  }
}
