package io.redrive.server.ui;

import io.redrive.queue.Queue;
import io.redrive.queue.QueueStats;
import java.util.Map;

/**
 * The queue page's model.
 *
 * @param queue the queue and its policy
 * @param stats its figures (depth by state, attempts histogram, dead reasons)
 * @param mayAct true when the viewer may pause, resume and act on its messages
 */
public record QueueView(Queue queue, QueueStats stats, boolean mayAct) {

  /** The largest count of the attempts histogram (the scale of its bars), at least 1. */
  public long histogramMax() {
    long max = 1;
    for (Map.Entry<Integer, Long> e : stats.attemptsHistogram().entrySet()) {
      max = Math.max(max, e.getValue());
    }
    return max;
  }

  /** True when a message at {@code attempts} is one lease from poison. */
  public boolean nearPoison(int attempts) {
    return attempts >= queue.policy().maxAttempts() - 1;
  }
}
