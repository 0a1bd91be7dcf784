package io.redrive.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Input of {@link Store#activity}: the minutes from {@code from} to {@code to}, both included (each
 * truncated to its minute), of the named queues summed.
 *
 * @param queues the queues to sum (unknown names count nothing), or null for every queue
 */
public record ActivityParams(List<String> queues, Instant from, Instant to) {
  public ActivityParams {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    queues = queues == null ? null : List.copyOf(queues);
  }
}
