package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import java.util.Objects;

/**
 * Runs one leased message's handler on the calling thread, the way a {@link Worker} runs it, and
 * says how to settle it: a return completes (with the handler's result, if any), a throw is
 * classified by the registration's classifier (else the default one) and anything else the handler
 * returned becomes the same fail command a worker sends. The caller settles the command (for
 * example with {@link Redrive#settle}); nothing here touches the store. No watchdog runs: a
 * registration's timeout is not enforced and the lease is not renewed, so this is for tests and
 * tools that run short handlers (the user test kit's drain and inline mode).
 */
public final class DirectRun {
  private DirectRun() {}

  /**
   * Runs {@code registration}'s handler for {@code message} and returns the command that settles
   * it.
   *
   * @param workerId the worker id the handler sees in its context
   * @throws RuntimeException whatever the classifier throws for a handler's failure
   */
  public static SettleCommand run(
      Redrive redrive, LeasedMessage message, HandlerRegistration registration, String workerId) {
    Objects.requireNonNull(redrive, "redrive");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(registration, "registration");
    if (!registration.type().equals(message.type())) {
      throw new IllegalArgumentException(
          "registration: handles type \""
              + registration.type()
              + "\", not the message's type \""
              + message.type()
              + "\"");
    }
    HandlerContext context = new HandlerContext(message, workerId, redrive);
    LeaseToken token = LeaseToken.parse(message.token());
    HandlerResult result = null;
    Throwable error = null;
    try {
      result = registration.handler().handle(context);
    } catch (Throwable t) { // every failure counts, even Errors, as in a worker
      error = t;
    }
    if (error == null && (result == null || result instanceof HandlerResult.Complete)) {
      return new SettleCommand.Complete(token);
    }
    if (error == null && result instanceof HandlerResult.CompleteWithResult r) {
      return new SettleCommand.Complete(token, r.resultJson());
    }
    FailureClassifier classifier =
        registration.classifier() != null
            ? registration.classifier()
            : DefaultFailureClassifier.INSTANCE;
    return FailRequests.of(token, classifier, context, result, error);
  }
}
