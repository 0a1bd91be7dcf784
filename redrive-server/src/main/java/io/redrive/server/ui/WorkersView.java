package io.redrive.server.ui;

import io.redrive.lease.LeaseHolder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The workers page's model: each worker holding leases now in the viewer's queues, with what it
 * holds per queue and type. The store keeps no record of idle workers, so a worker appears only
 * while it holds a lease.
 *
 * @param workers the workers, most recent lease first
 */
public record WorkersView(List<Line> workers) {
  public WorkersView {
    workers = List.copyOf(workers);
  }

  /**
   * One worker.
   *
   * @param worker the name it leases under
   * @param held leases it holds now, in every queue shown
   * @param expired of those, how many are past their deadline (late, stuck or gone)
   * @param lastLeasedAt when its newest lease began
   * @param leases what it holds, per queue and type
   */
  public record Line(
      String worker, long held, long expired, Instant lastLeasedAt, List<LeaseHolder> leases) {
    /** The distinct queues it leases from, in the order of {@link #leases}. */
    public List<String> queues() {
      return leases.stream().map(LeaseHolder::queue).distinct().toList();
    }

    /** The leases it holds per message type, summed over its queues. */
    public Map<String, Long> types() {
      Map<String, Long> out = new LinkedHashMap<>();
      for (LeaseHolder h : leases) {
        out.merge(h.type(), h.held(), Long::sum);
      }
      return out;
    }
  }

  /** Groups {@code holders} (one per worker, queue and type) by worker. */
  static WorkersView of(List<LeaseHolder> holders) {
    Map<String, List<LeaseHolder>> byWorker = new LinkedHashMap<>();
    for (LeaseHolder h : holders) {
      byWorker.computeIfAbsent(h.worker(), w -> new ArrayList<>()).add(h);
    }
    List<Line> lines = new ArrayList<>();
    for (Map.Entry<String, List<LeaseHolder>> e : byWorker.entrySet()) {
      long held = 0;
      long expired = 0;
      Instant last = null;
      for (LeaseHolder h : e.getValue()) {
        held += h.held();
        expired += h.expired();
        last = last == null || h.lastLeasedAt().isAfter(last) ? h.lastLeasedAt() : last;
      }
      lines.add(new Line(e.getKey(), held, expired, last, List.copyOf(e.getValue())));
    }
    lines.sort((a, b) -> b.lastLeasedAt().compareTo(a.lastLeasedAt()));
    return new WorkersView(lines);
  }
}
