package io.redrive.server.ui;

import java.util.List;

/**
 * The overview's model: every queue the viewer may see with its figures.
 *
 * @param queues the queues, by name
 * @param throughput the last hour of those queues, summed
 * @param objectives the objectives of those queues
 * @param unserved the unserved types of those queues this node's maintenance last raised
 *     (docs/engine.md, "Live workers and unserved types"), shown as a banner
 */
public record OverviewView(
    List<QueueLine> queues,
    ThroughputView throughput,
    ObjectivesCard objectives,
    List<io.redrive.lease.WaitingType> unserved) {

  /** Messages in {@code state} summed over every queue shown. */
  public long total(String state) {
    long n = 0;
    for (QueueLine q : queues) {
      n +=
          switch (state) {
            case "ready" -> q.stats().ready();
            case "scheduled" -> q.stats().scheduled();
            case "leased" -> q.stats().leased() + q.stats().leaseExpired();
            case "dead" -> q.stats().dead();
            default -> throw new IllegalArgumentException("unknown state " + state);
          };
    }
    return n;
  }
}
