package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import io.redrive.trace.HandlerTrace;
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
  private final Redrive redrive;
  private final LeasedMessage message;
  private final String workerId;
  private final HandlerTrace trace;
  private final SettleCommand command;

  private DirectRun(
      Redrive redrive,
      LeasedMessage message,
      String workerId,
      HandlerTrace trace,
      SettleCommand command) {
    this.redrive = redrive;
    this.message = message;
    this.workerId = workerId;
    this.trace = trace;
    this.command = command;
  }

  /**
   * Runs {@code registration}'s handler for {@code message} inside the delivery's trace (the
   * engine's {@link io.redrive.trace.MessageTracing}) and returns the run, whose {@link #command()}
   * settles it; hand the settle's answer to {@link #settled} so the trace ends.
   *
   * @param workerId the worker id the handler sees in its context
   * @throws RuntimeException whatever the classifier throws for a handler's failure
   */
  public static DirectRun run(
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
    HandlerTrace trace = TracedHandler.start(redrive.tracing(), message, workerId);
    HandlerContext context = new HandlerContext(message, workerId, redrive);
    TracedHandler.Call call = TracedHandler.call(registration.handler(), context, trace);
    return new DirectRun(
        redrive, message, workerId, trace, command(message, registration, context, call));
  }

  private static SettleCommand command(
      LeasedMessage message,
      HandlerRegistration registration,
      HandlerContext context,
      TracedHandler.Call call) {
    LeaseToken token = LeaseToken.parse(message.token());
    HandlerResult result = call.result();
    Throwable error = call.error();
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

  /** The command that settles the message: a complete, or the fail a worker would send. */
  public SettleCommand command() {
    return command;
  }

  /** Records how the settle went on the delivery's trace and ends it; call once. */
  public void settled(Settlement settlement) {
    TracedHandler.settled(trace, message, workerId, settlement, null, redrive.clock());
  }

  /** Records that the settle could not be written and ends the delivery's trace; call once. */
  public void settleFailed(RuntimeException error) {
    TracedHandler.settled(trace, message, workerId, null, error, redrive.clock());
  }
}
