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
 */
public record LeaseResult(
    List<LeasedMessage> leased,
    List<String> poisoned,
    List<String> expired,
    List<String> discarded) {

  /** A result in which no dead-lettered message was discarded. */
  public LeaseResult(List<LeasedMessage> leased, List<String> poisoned, List<String> expired) {
    this(leased, poisoned, expired, List.of());
  }
}
