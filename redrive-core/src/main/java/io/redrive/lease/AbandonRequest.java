package io.redrive.lease;

import io.redrive.failure.FailureReason;
import java.time.Duration;

/**
 * Gives a lease back with a visibility delay.
 *
 * @param token the lease token
 * @param delay how long before it is visible again (zero for now)
 * @param refund when true the attempt is given back (attempts−1, floored at 0), for
 *     infrastructure-caused give-backs such as a graceful shutdown
 * @param note why, recorded in the history (may be null)
 * @param reason a failure reason to record with the entry (e.g. UNREGISTERED_HANDLER), or null
 */
public record AbandonRequest(
    String token, Duration delay, boolean refund, String note, FailureReason reason) {

  public AbandonRequest(String token, Duration delay, boolean refund, String note) {
    this(token, delay, refund, note, null);
  }
}
