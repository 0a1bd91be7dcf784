package io.redrive.lease;

import java.time.Instant;

/**
 * A worker as the store sees it: the leases it holds now on one queue and one type. A worker that
 * holds nothing does not appear (the store keeps no record of idle workers).
 *
 * @param worker the worker name given when leasing
 * @param held messages of {@code type} in {@code queue} it holds now
 * @param expired of those, how many are past their lease deadline and not yet given back (the
 *     worker is late, stuck or gone; the maintenance sweep gives them back)
 * @param firstLeasedAt when its oldest lease here began
 * @param lastLeasedAt when its newest lease here began
 */
public record LeaseHolder(
    String worker,
    String queue,
    String type,
    long held,
    long expired,
    Instant firstLeasedAt,
    Instant lastLeasedAt) {}
