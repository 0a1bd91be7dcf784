package io.redrive.lease;

import java.time.Duration;

/**
 * A request to lease up to {@code max} ready messages of one queue.
 *
 * @param queue the queue to lease from
 * @param worker the worker id recorded in the attempt history
 * @param max most messages to lease (1–1000)
 * @param leaseTimeout lease length, or null for the queue's {@code leaseTimeout}
 */
public record LeaseRequest(String queue, String worker, int max, Duration leaseTimeout) {
  /** Largest batch one lease call may take. */
  public static final int MAX_BATCH = 1000;

  public static LeaseRequest of(String queue, String worker, int max) {
    return new LeaseRequest(queue, worker, max, null);
  }
}
