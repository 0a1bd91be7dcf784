package io.redrive.lease;

import java.util.List;

/**
 * The outcome of one lease call.
 *
 * @param leased the delivered messages, in serve order
 * @param poisoned ids dead-lettered as POISON by this call instead of being delivered
 * @param expired ids dead-lettered as EXPIRED by this call
 */
public record LeaseResult(
    List<LeasedMessage> leased, List<String> poisoned, List<String> expired) {}
