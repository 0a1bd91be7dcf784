package io.redrive.spring;

import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueUpdate;

/**
 * A queue the application declares as a bean: the starter makes it exist on start with the fields
 * {@code declared} names (created with the defaults plus those, or merged into an existing queue),
 * as it does for {@code redrive.queues.*} (docs/spring-boot.md, "Queues").
 *
 * @param name the queue
 * @param declared the policy fields to set; the others keep their value (or the default)
 */
public record RedriveQueue(String name, QueueUpdate declared) {
  public RedriveQueue {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name: is required");
    }
    if (declared == null) {
      throw new IllegalArgumentException("declared: is required (QueueUpdate.builder().build())");
    }
  }

  /** The queue with the default policy when created; an existing one is left as it is. */
  public static RedriveQueue of(String name) {
    return new RedriveQueue(name, QueueUpdate.builder().build());
  }

  /** The queue with exactly {@code policy}, every field. */
  public static RedriveQueue of(String name, QueuePolicy policy) {
    return new RedriveQueue(name, QueueUpdate.everyField(policy));
  }
}
