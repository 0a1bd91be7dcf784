package io.redrive.worker;

import io.redrive.failure.FailureReason;
import io.redrive.failure.StackTraces;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;

/** Turns what a handler returned or threw into the {@link FailRequest} that settles it. Pure. */
final class FailRequests {
  private FailRequests() {}

  /**
   * The failure for a handler that threw {@code error} (classified by {@code classifier}) or
   * returned the non-complete {@code result}.
   *
   * @throws RuntimeException whatever the classifier throws
   */
  static FailRequest of(
      LeasedMessage m,
      FailureClassifier classifier,
      HandlerContext context,
      HandlerResult result,
      Throwable error) {
    if (error != null) {
      FailureReason reason = reportable(classifier.classify(error));
      return FailRequest.of(m.token(), reason, describe(error))
          .withStackTrace(StackTraces.bounded(error, StackTraces.DEFAULT_MAX_CHARS))
          .withProgress(context.progress());
    }
    if (result instanceof HandlerResult.RetryAfter r) {
      return FailRequest.of(m.token(), reportable(r.reason()), r.message())
          .withRetryAfter(r.delay())
          .withRetryable(true)
          .withProgress(context.progress());
    }
    if (result instanceof HandlerResult.Dead d) {
      return FailRequest.of(m.token(), reportable(d.reason()), d.message())
          .withRetryable(false)
          .withProgress(context.progress());
    }
    HandlerResult.Fail f = (HandlerResult.Fail) result;
    return FailRequest.of(m.token(), reportable(f.reason()), f.message())
        .withProgress(context.progress());
  }

  /**
   * Reasons only Redrive assigns become HANDLER_EXCEPTION when a handler or classifier says them.
   */
  static FailureReason reportable(FailureReason reason) {
    return switch (reason) {
      case POISON, EXPIRED, LEASE_EXPIRED -> FailureReason.HANDLER_EXCEPTION;
      default -> reason;
    };
  }

  private static String describe(Throwable t) {
    String msg = t.getMessage();
    return t.getClass().getName() + (msg == null ? "" : ": " + msg);
  }
}
