package io.redrive.server.ui;

import io.redrive.message.Message;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.FlowStatus;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueStats;
import java.util.List;
import java.util.Map;

/**
 * The queue page's model.
 *
 * @param queue the queue and its policy
 * @param stats its figures (depth by state, attempts histogram, dead reasons)
 * @param mayAct true when the viewer may pause, resume and act on its messages
 * @param throughput its last hour
 * @param poisonCandidates ready or scheduled messages whose next delivery is their last (attempts ≥
 *     maxAttempts − 1), the first {@value #CANDIDATES} in serve order
 * @param morePoisonCandidates true when there are more than those shown
 * @param completedKeptFor how long completed messages keep their story (own or default)
 * @param flow where the queue stands against its flow limits now
 * @param objectives the queue's objectives
 * @param unserved its ready types no live worker takes (docs/engine.md, "Live workers and unserved
 *     types"), shown as a banner
 * @param circuits its dependencies' circuits (empty without a circuit breaker)
 */
public record QueueView(
    Queue queue,
    QueueStats stats,
    boolean mayAct,
    ThroughputView throughput,
    List<Message> poisonCandidates,
    boolean morePoisonCandidates,
    java.time.Duration completedKeptFor,
    FlowStatus flow,
    ObjectivesCard objectives,
    List<io.redrive.lease.WaitingType> unserved,
    List<io.redrive.queue.CircuitStatus> circuits) {

  /** The circuit breaker's settings in one line, or "off". */
  public String circuitText() {
    io.redrive.queue.CircuitPolicy c = queue.policy().circuit();
    if (c == null) {
      return "off";
    }
    return c.failures()
        + " failures within "
        + Fmt.age(c.window())
        + " open a dependency's circuit · a probe every "
        + Fmt.age(c.probeInterval())
        + " · waves "
        + c.waves()
        + (c.learn() ? " · learns dependencies from failures" : "");
  }

  /** The circuits that hold messages back now (OPEN or HALF_OPEN), for the banner. */
  public List<io.redrive.queue.CircuitStatus> holdingCircuits() {
    return circuits.stream()
        .filter(c -> c.state() != io.redrive.queue.CircuitState.CLOSED)
        .toList();
  }

  /** The queue's flow limits in one line, or "none". */
  public String limitsText() {
    FlowLimits l = queue.policy().limits();
    if (l.isEmpty()) {
      return "none";
    }
    List<String> parts = new java.util.ArrayList<>();
    if (l.maxRunning() != null) {
      parts.add("at most " + l.maxRunning() + " running");
    }
    if (l.maxRunningPerKey() != null) {
      parts.add(
          l.maxRunningPerKey() == 1
              ? "one running per key (singleton)"
              : "at most " + l.maxRunningPerKey() + " running per key");
    }
    if (l.rate() != null) {
      parts.add(l.rate() + " leases");
    }
    if (l.ratePerKey() != null) {
      parts.add(l.ratePerKey() + " leases per key");
    }
    return String.join(", ", parts);
  }

  /** What the flow limits hold back now, in one line. */
  public String flowText() {
    String text =
        flow.running()
            + " running, "
            + flow.keysAtCap()
            + (flow.keysAtCap() == 1 ? " key" : " keys")
            + " at their cap, "
            + flow.keysHeld()
            + (flow.keysHeld() == 1 ? " key" : " keys")
            + " slowed down";
    return flow.queueHeldUntil() == null
        ? text
        : text + "; the whole queue slowed down until " + Fmt.time(flow.queueHeldUntil());
  }

  /** Whether the queue keeps completed messages' stories (its own setting, else the default). */
  public boolean keepsCompleted() {
    return completedKeptFor != null && !completedKeptFor.isZero();
  }

  /** How many poison candidates the page lists. */
  public static final int CANDIDATES = 20;

  /** The largest count of the attempts histogram (the scale of its bars), at least 1. */
  public long histogramMax() {
    long max = 1;
    for (Map.Entry<Integer, Long> e : stats.attemptsHistogram().entrySet()) {
      max = Math.max(max, e.getValue());
    }
    return max;
  }
}
