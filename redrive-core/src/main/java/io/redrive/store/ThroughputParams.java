package io.redrive.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Input of {@link Store#throughput}: the minutes from {@code from} to {@code to}, both included
 * (each truncated to its minute), of the named queues summed.
 *
 * @param queues the queues to sum (unknown names count nothing), or null for every queue
 */
public record ThroughputParams(List<String> queues, Instant from, Instant to) {
  public ThroughputParams {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    queues = queues == null ? null : List.copyOf(queues);
  }
}
