package io.redrive.worker;

import io.redrive.failure.FailureReason;
import io.redrive.failure.StackTraces;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.SettleCommand;

/**
 * Turns what a handler returned or threw into the command that settles it: a fail, or for a
 * slow-down the abandon that holds its key. Pure.
 */
final class FailRequests {
  private FailRequests() {}

  /**
   * The failure of lease {@code token} for a handler that threw {@code error} (classified by {@code
   * classifier}) or returned the non-complete {@code result}.
   *
   * @throws RuntimeException whatever the classifier throws
   */
  static SettleCommand of(
      LeaseToken token,
      FailureClassifier classifier,
      HandlerContext context,
      HandlerResult result,
      Throwable error) {
    long progress = context.progress();
    if (error != null) {
      FailureReason reason = reportable(classifier.classify(error));
      return new SettleCommand.Fail(
          token,
          reason,
          describe(error),
          null,
          null,
          progress,
          StackTraces.bounded(error, StackTraces.DEFAULT_MAX_CHARS),
          classifier.dependencyOf(error));
    }
    if (result instanceof HandlerResult.SlowDown s) {
      return SettleCommand.Abandon.slowDown(token, s.delay());
    }
    if (result instanceof HandlerResult.RetryAfter r) {
      return new SettleCommand.Fail(
          token, reportable(r.reason()), r.message(), true, r.delay(), progress, null);
    }
    if (result instanceof HandlerResult.Dead d) {
      return new SettleCommand.Fail(
          token, reportable(d.reason()), d.message(), false, null, progress, null);
    }
    HandlerResult.Fail f = (HandlerResult.Fail) result;
    return new SettleCommand.Fail(
        token, reportable(f.reason()), f.message(), null, null, progress, null, f.dependency());
  }

  /**
   * The handler-duration outcome label of a run that did not complete: {@code slowed} for a
   * slow-down (a dependency asked to wait; no attempt is spent on it, so it is no failure), else
   * {@code failed}.
   */
  static String outcome(HandlerResult result) {
    return result instanceof HandlerResult.SlowDown ? "slowed" : "failed";
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
