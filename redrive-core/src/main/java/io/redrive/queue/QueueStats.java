package io.redrive.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * A point-in-time summary of one queue.
 *
 * @param queue the queue name
 * @param ready messages that can be leased now
 * @param scheduled ready messages whose visibility lies in the future (delayed or backing off)
 * @param leased messages under a live lease
 * @param leaseExpired leased messages whose lease ran out and nobody re-leased yet
 * @param dead dead messages kept in this queue
 * @param attemptsHistogram message count by attempts so far (unfinished and dead messages)
 * @param deadReasons dead message count by dead reason
 * @param failureReasons failed attempt count by reason, over the history of present messages
 * @param nextScheduledAt earliest visibility time among scheduled messages, or null
 * @param latestScheduledAt latest visibility time among scheduled messages, or null
 * @param oldestReadyAge how long the oldest ready message has been visible, or null
 */
public record QueueStats(
    String queue,
    long ready,
    long scheduled,
    long leased,
    long leaseExpired,
    long dead,
    Map<Integer, Long> attemptsHistogram,
    Map<String, Long> deadReasons,
    Map<String, Long> failureReasons,
    Instant nextScheduledAt,
    Instant latestScheduledAt,
    Duration oldestReadyAge) {

  /** Every message present in the queue. */
  public long total() {
    return ready + scheduled + leased + leaseExpired + dead;
  }
}
