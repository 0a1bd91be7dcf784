package io.redrive.server.ui;

import io.redrive.message.Message;
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
 */
public record QueueView(
    Queue queue,
    QueueStats stats,
    boolean mayAct,
    ThroughputView throughput,
    List<Message> poisonCandidates,
    boolean morePoisonCandidates,
    java.time.Duration completedKeptFor) {

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
