package io.redrive.lease;

import java.time.Duration;
import java.util.List;

/**
 * A queue's live workers and its unserved types, as {@link io.redrive.Redrive#queueWorkers} reads
 * them from the store (so every node answers the same).
 *
 * @param queue the queue
 * @param liveWithin how recent a lease call makes a worker live (the engine's {@code
 *     unservedAfter})
 * @param workers the workers whose latest lease call is within {@code liveWithin}, by name
 * @param unserved the types whose oldest ready message waited longer than {@code liveWithin} with
 *     no live worker taking the type, by type
 */
public record QueueWorkers(
    String queue, Duration liveWithin, List<LiveWorker> workers, List<WaitingType> unserved) {
  public QueueWorkers {
    workers = List.copyOf(workers);
    unserved = List.copyOf(unserved);
  }
}
