package io.redrive;

import io.redrive.error.LeaseNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.SettleResult;
import io.redrive.message.Message;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.store.AbandonParams;
import io.redrive.store.FailParams;
import io.redrive.store.FindMessageParams;
import io.redrive.store.Store;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private static final Logger LOG = LoggerFactory.getLogger(Redrive.class);

  private final Store store;
  private final UnregisteredHandlerBackoff backoff;

  UnregisteredHandlerFailures(Store store, UnregisteredHandlerBackoff backoff) {
    this.store = store;
    this.backoff = backoff;
  }

  static boolean applies(FailParams p) {
    return p.reason() == FailureReason.UNREGISTERED_HANDLER && !Boolean.FALSE.equals(p.retryable());
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
   * request overrides it); LEASE_LOST / LEASE_NOT_FOUND as any settle.
   */
  SettleResult abandon(FailParams p) {
    String id = p.token().messageId();
    Message m =
        store
            .findMessage(new FindMessageParams(id, p.now()))
            .orElseThrow(() -> new LeaseNotFoundException(id));
    int attempt = Math.max(1, m.attempts());
    Duration delay = p.retryAfter() != null ? p.retryAfter() : backoff.delayAfter(attempt);
    String worker = m.leasedBy() != null ? m.leasedBy() : "unknown";
    SettleResult result =
        store.abandonIfLeased(
            new AbandonParams(
                p.token(),
                delay,
                false,
                Validation.bounded(
                    note(m.type(), worker, p.message()), Validation.MAX_ERROR_MESSAGE),
                FailureReason.UNREGISTERED_HANDLER,
                p.now()));
    LOG.warn(
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
    return result;
  }
}
