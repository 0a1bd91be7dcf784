package io.redrive;

import io.redrive.failure.FailureReason;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import io.redrive.message.Message;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.store.FindMessageParams;
import io.redrive.store.SettleParams;
import io.redrive.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * How the engine settles a failure with reason UNREGISTERED_HANDLER, for every caller (the Java
 * worker, an HTTP worker in any language, an application): not a failure but an abandon with the
 * unregistered-handler backoff, the attempt counted, an ABANDONED history entry naming the type and
 * worker, and a WARN naming the attempts left before the message is poisoned. A caller's explicit
 * {@code retryable = false} makes it an ordinary permanent failure instead.
 *
 * <p>Implementation note: the message is read first for its type, attempts and lease holder; that
 * read cannot go stale unnoticed, since the abandon that follows only succeeds while the same token
 * holds the lease, and attempts only change with a new lease. Thread-safe.
 */
final class UnregisteredHandlerFailures {
  private final Store store;
  private final UnregisteredHandlerBackoff backoff;
  private final UnservedTypes unserved;

  UnregisteredHandlerFailures(
      Store store, UnregisteredHandlerBackoff backoff, UnservedTypes unserved) {
    this.store = store;
    this.backoff = backoff;
    this.unserved = unserved;
  }

  static boolean applies(SettleCommand.Fail f) {
    return f.reason() == FailureReason.UNREGISTERED_HANDLER && !Boolean.FALSE.equals(f.retryable());
  }

  /** The history note the worker has always written; a caller's own text is appended. */
  static String note(String type, String worker, String callerMessage) {
    String note = "no handler for type " + type + " on worker " + worker;
    if (callerMessage == null || callerMessage.isBlank() || callerMessage.equals(note)) {
      return note;
    }
    return note + ": " + callerMessage;
  }

  /**
   * Abandons the lease with the unregistered backoff for its attempt ({@code retryAfter} of the
   * failure overrides it), in a transaction of its own; lost as any settle. While no live worker's
   * leases name the message's type (docs/engine.md, "Live workers and unserved types"), nobody
   * could take it at all, so the attempt is refunded and it waits at least the backoff's longest
   * delay (a longer {@code retryAfter} wins): a rolling deployment whose new handler is not up yet
   * no longer poisons it.
   */
  Settlement abandon(SettleCommand.Fail f, Instant now) {
    String id = f.messageId();
    Optional<Message> found = store.findMessage(new FindMessageParams(id, now));
    if (found.isEmpty()) {
      return Settlement.lost(f, Settlement.Lost.NOT_FOUND);
    }
    Message m = found.get();
    int attempt = Math.max(1, m.attempts());
    boolean refund = !unserved.named(m.queue(), m.type(), now);
    Duration delay = f.retryAfter() != null ? f.retryAfter() : backoff.delayAfter(attempt);
    if (refund && delay.compareTo(backoff.max()) < 0) {
      // A refunded attempt does not grow the backoff, and a worker's retryAfter is computed from
      // it: without a floor the message would bounce at the shortest delay until a deploy ends.
      delay = backoff.max();
    }
    String worker = m.leasedBy() != null ? m.leasedBy() : "unknown";
    SettleCommand abandon =
        new SettleCommand.Abandon(
            f.token(),
            delay,
            refund,
            Validation.bounded(note(m.type(), worker, f.message()), Validation.MAX_ERROR_MESSAGE),
            FailureReason.UNREGISTERED_HANDLER);
    Settlement settled = store.settle(new SettleParams(List.of(abandon), now)).get(0);
    if (!settled.settled()) {
      return Settlement.lost(f, settled.lost());
    }
    if (refund) {
      EngineLog.LOG.warn(
          "no handler for type {} on worker {}: message {} (queue {}) abandoned with {} backoff,"
              + " its attempt refunded: no live worker names the type",
          m.type(),
          worker,
          id,
          m.queue(),
          delay);
      return Settlement.settled(f, settled.result());
    }
    EngineLog.LOG.warn(
        "no handler for type {} on worker {}: message {} (queue {}, attempt {}/{}) abandoned"
            + " with {} backoff; it will be poisoned after {} more attempts",
        m.type(),
        worker,
        id,
        m.queue(),
        attempt,
        m.maxAttempts(),
        delay,
        Math.max(0, m.maxAttempts() - attempt));
    return Settlement.settled(f, settled.result());
  }
}
