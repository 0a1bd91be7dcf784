package io.redrive.lease;

import io.redrive.failure.FailureReason;
import java.time.Duration;
import java.util.Objects;

/**
 * One way to end (or give back) a lease: the single shape a settle has from the worker through
 * {@link io.redrive.Redrive#settle} to the store, which settles many of them, of any kinds, in one
 * transaction and answers a {@link Settlement} for each.
 */
public sealed interface SettleCommand
    permits SettleCommand.Complete,
        SettleCommand.Fail,
        SettleCommand.Abandon,
        SettleCommand.Release {

  /** The lease this command settles. */
  LeaseToken token();

  /** The message this command settles. */
  default String messageId() {
    return token().messageId();
  }

  /**
   * The handler's work is done: the message leaves the queue.
   *
   * @param result the handler's result as JSON, or null; kept only by a workflow-owned queue, whose
   *     instance receives it (must then be valid JSON)
   */
  record Complete(LeaseToken token, String result) implements SettleCommand {
    public Complete {
      Objects.requireNonNull(token, "token");
    }

    /** A complete without a result. */
    public Complete(LeaseToken token) {
      this(token, null);
    }
  }

  /**
   * The attempt failed: retried after the backoff, or dead-lettered when its attempts are used up
   * or the failure is permanent. Fields as in {@link FailRequest}.
   */
  record Fail(
      LeaseToken token,
      FailureReason reason,
      String message,
      Boolean retryable,
      Duration retryAfter,
      long progress,
      String stackTrace,
      String dependency)
      implements SettleCommand {
    public Fail {
      Objects.requireNonNull(token, "token");
    }

    /** A failure that names no dependency. */
    public Fail(
        LeaseToken token,
        FailureReason reason,
        String message,
        Boolean retryable,
        Duration retryAfter,
        long progress,
        String stackTrace) {
      this(token, reason, message, retryable, retryAfter, progress, stackTrace, null);
    }

    /** The command a caller's request names (the token parsed). */
    public static Fail of(FailRequest request) {
      return new Fail(
          LeaseToken.parse(request.token()),
          request.reason(),
          request.message(),
          request.retryable(),
          request.retryAfter(),
          request.progress(),
          request.stackTrace(),
          request.dependency());
    }
  }

  /**
   * The lease is given back, visible again after {@code delay}. Fields as in {@link
   * AbandonRequest}; {@code hold} (a slow-down) also holds the message's limit key, or its whole
   * queue when it has none, for {@code delay}: nothing of it is leased until then.
   */
  record Abandon(
      LeaseToken token,
      Duration delay,
      boolean refund,
      String note,
      FailureReason reason,
      boolean hold)
      implements SettleCommand {
    public Abandon {
      Objects.requireNonNull(token, "token");
    }

    /** An abandon that holds nothing. */
    public Abandon(
        LeaseToken token, Duration delay, boolean refund, String note, FailureReason reason) {
      this(token, delay, refund, note, reason, false);
    }

    /**
     * A slow-down (a dependency answered "too many requests"): the message goes back with its
     * attempt refunded, visible again after {@code delay}, and its limit key (or its queue) is held
     * for {@code delay}.
     */
    public static Abandon slowDown(LeaseToken token, Duration delay) {
      return new Abandon(token, delay, true, null, null, true);
    }

    /** The command a caller's request names (the token parsed). */
    public static Abandon of(AbandonRequest request) {
      return new Abandon(
          LeaseToken.parse(request.token()),
          request.delay(),
          request.refund(),
          request.note(),
          request.reason());
    }
  }

  /** The lease is given back at once with its attempt refunded (cascade release, shutdown). */
  record Release(LeaseToken token) implements SettleCommand {
    public Release {
      Objects.requireNonNull(token, "token");
    }
  }
}
