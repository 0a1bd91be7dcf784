package io.redrive.deadletter;

import java.util.Set;

/**
 * Which dead-letter groups to read and which page of them. Groups come largest first (count
 * descending), then by fingerprint key and queue, so pages by offset are stable while nothing dies
 * or is retried.
 *
 * @param queues the queues to read, or null for every queue (an empty set reads none)
 * @param limit page size, 1–1000
 * @param offset groups to skip, 0 or more
 */
public record DeadGroupQuery(Set<String> queues, int limit, int offset) {

  /** Largest page. */
  public static final int MAX_LIMIT = 1000;

  public DeadGroupQuery {
    queues = queues == null ? null : Set.copyOf(queues);
  }

  /** The first 100 groups of every queue. */
  public static DeadGroupQuery allQueues() {
    return new DeadGroupQuery(null, 100, 0);
  }

  /** The first 100 groups of {@code queue}. */
  public static DeadGroupQuery of(String queue) {
    return new DeadGroupQuery(Set.of(queue), 100, 0);
  }

  public DeadGroupQuery withQueues(Set<String> value) {
    return new DeadGroupQuery(value, limit, offset);
  }

  public DeadGroupQuery withLimit(int value) {
    return new DeadGroupQuery(queues, value, offset);
  }

  public DeadGroupQuery withOffset(int value) {
    return new DeadGroupQuery(queues, limit, value);
  }
}
