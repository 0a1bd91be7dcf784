package io.redrive.lease;

import java.time.Duration;

/**
 * Gives a lease back with a visibility delay.
 *
 * @param token the lease token
 * @param delay how long before it is visible again (zero for now)
 * @param refund when true the attempt is given back (attempts−1, floored at 0), for
 *     infrastructure-caused give-backs such as a graceful shutdown
 * @param note why, recorded in the history (may be null)
 */
public record AbandonRequest(String token, Duration delay, boolean refund, String note) {}
