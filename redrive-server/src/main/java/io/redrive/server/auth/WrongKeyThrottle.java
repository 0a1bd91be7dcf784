package io.redrive.server.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Slows a client that guesses API keys. After {@link #LIMIT} wrong keys from one address within
 * {@link #WINDOW}, every request from that address that carries a key, right or wrong, is refused
 * (HTTP 429 with {@code Retry-After}) until the window ends; other addresses are not affected. The
 * API's bearer check and the dashboard's sign-in count against the same address. Thread-safe; it
 * keeps at most {@link #MAX_ADDRESSES} addresses, forgetting those whose window has ended first.
 */
public final class WrongKeyThrottle {
  /** Wrong keys one address may send within {@link #WINDOW} before it must wait. */
  public static final int LIMIT = 10;

  /** How long wrong keys count, from an address's first one; also the longest wait. */
  public static final Duration WINDOW = Duration.ofMinutes(1);

  /** Addresses remembered at once: a bound on memory whatever the number of guessers. */
  static final int MAX_ADDRESSES = 10_000;

  private final Clock clock;
  private final Map<String, Strikes> byAddress = new HashMap<>();

  /** Wrong keys from one address since {@code since}. */
  private record Strikes(Instant since, int count) {}

  public WrongKeyThrottle(Clock clock) {
    this.clock = clock;
  }

  /** Zero when {@code address} may present a key now, else how long it must wait (≥ 1 s). */
  public synchronized Duration waitFor(String address) {
    Strikes s = byAddress.get(address);
    if (s == null || s.count() < LIMIT) {
      return Duration.ZERO;
    }
    Duration left = Duration.between(clock.instant(), s.since().plus(WINDOW));
    if (left.isNegative() || left.isZero()) {
      byAddress.remove(address);
      return Duration.ZERO;
    }
    return left.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : left;
  }

  /** Counts a wrong key from {@code address}. */
  public synchronized void wrongKey(String address) {
    Instant now = clock.instant();
    Strikes s = byAddress.get(address);
    if (s == null || !now.isBefore(s.since().plus(WINDOW))) {
      if (s == null && byAddress.size() >= MAX_ADDRESSES) {
        byAddress.values().removeIf(old -> !now.isBefore(old.since().plus(WINDOW)));
        if (byAddress.size() >= MAX_ADDRESSES) {
          return; // every remembered address is still counting: this one goes uncounted
        }
      }
      byAddress.put(address, new Strikes(now, 1));
    } else {
      byAddress.put(address, new Strikes(s.since(), s.count() + 1));
    }
  }

  /** {@code wait} as a {@code Retry-After} value: whole seconds, rounded up. */
  public static long retryAfterSeconds(Duration wait) {
    return Math.max(1, (wait.toMillis() + 999) / 1000);
  }

  /** The message a refused request hears. */
  public static String refusal(Duration wait) {
    return "too many wrong API keys from this address: every key it sends is refused for "
        + retryAfterSeconds(wait)
        + " s more (after "
        + LIMIT
        + " wrong keys within "
        + WINDOW.toSeconds()
        + " s)";
  }
}
