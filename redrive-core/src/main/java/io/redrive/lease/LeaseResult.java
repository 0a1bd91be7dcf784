package io.redrive.lease;

import java.util.List;

/**
 * The outcome of one lease call.
 *
 * @param leased the delivered messages, in serve order
 * @param poisoned ids dead-lettered as POISON by this call instead of being delivered
 * @param expired ids dead-lettered as EXPIRED by this call
 * @param discarded the ids of {@code poisoned} and {@code expired} that were deleted because their
 *     queue discards dead messages
 * @param crashPoisoned the ids of {@code poisoned} that the crash-loop breaker poisoned: their
 *     lease ran out on the queue's {@code maxCrashes} distinct workers
 */
public record LeaseResult(
    List<LeasedMessage> leased,
    List<String> poisoned,
    List<String> expired,
    List<String> discarded,
    List<String> crashPoisoned) {

  /** A result in which no message was poisoned by the crash-loop breaker. */
  public LeaseResult(
      List<LeasedMessage> leased,
      List<String> poisoned,
      List<String> expired,
      List<String> discarded) {
    this(leased, poisoned, expired, discarded, List.of());
  }

  /** A result in which no dead-lettered message was discarded. */
  public LeaseResult(List<LeasedMessage> leased, List<String> poisoned, List<String> expired) {
    this(leased, poisoned, expired, List.of());
  }
}
