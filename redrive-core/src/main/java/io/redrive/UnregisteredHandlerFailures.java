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

  UnregisteredHandlerFailures(Store store, UnregisteredHandlerBackoff backoff) {
    this.store = store;
    this.backoff = backoff;
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
   * failure overrides it), in a transaction of its own; lost as any settle.
   */
  Settlement abandon(SettleCommand.Fail f, Instant now) {
    String id = f.messageId();
    Optional<Message> found = store.findMessage(new FindMessageParams(id, now));
    if (found.isEmpty()) {
      return Settlement.lost(f, Settlement.Lost.NOT_FOUND);
    }
    Message m = found.get();
    int attempt = Math.max(1, m.attempts());
    Duration delay = f.retryAfter() != null ? f.retryAfter() : backoff.delayAfter(attempt);
    String worker = m.leasedBy() != null ? m.leasedBy() : "unknown";
    SettleCommand abandon =
        new SettleCommand.Abandon(
            f.token(),
            delay,
            false,
            Validation.bounded(note(m.type(), worker, f.message()), Validation.MAX_ERROR_MESSAGE),
            FailureReason.UNREGISTERED_HANDLER);
    Settlement settled = store.settle(new SettleParams(List.of(abandon), now)).get(0);
    if (!settled.settled()) {
      return Settlement.lost(f, settled.lost());
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
