package io.redrive.workflow.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.failure.FailureReason;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerContext;
import io.redrive.worker.HandlerRegistration;
import io.redrive.worker.HandlerResult;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.SlowDownException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Runs a registered activity as a worker handler: decodes the message's input, calls the activity
 * and hands its result back as JSON. A throw is left to the worker, whose classifier turns it into
 * the failure the orchestration sees; an input that does not decode fails the activity at once
 * (SERIALIZATION_ERROR), since another delivery would not decode it either. A {@link
 * SlowDownException} becomes the worker's slow down: no attempt used, the key held.
 */
public final class ActivityHandler implements Handler {
  private static final ScheduledExecutorService TIMEOUTS =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "redrive-wf-activity-timeouts");
            t.setDaemon(true);
            return t;
          });

  private final ActivityRegistration registration;
  private final ObjectMapper mapper;

  public ActivityHandler(ActivityRegistration registration, ObjectMapper mapper) {
    this.registration = registration;
    this.mapper = mapper;
  }

  /** The worker registration of {@code registration}: its type, timeout and classifier. */
  public static HandlerRegistration registration(
      ActivityRegistration registration, ObjectMapper mapper) {
    HandlerRegistration h =
        HandlerRegistration.of(registration.name(), new ActivityHandler(registration, mapper));
    if (registration.timeout() != null) {
      h = h.withTimeout(registration.timeout());
    }
    if (registration.classifier() != null) {
      h = h.withClassifier(registration.classifier());
    }
    return h;
  }

  @Override
  public HandlerResult handle(HandlerContext context) throws Exception {
    Object input;
    try {
      input =
          ActivityInvocation.input(
              mapper,
              registration,
              type ->
                  mapper.readValue(context.payload() == null ? "null" : context.payload(), type));
    } catch (ActivityInvocation.UndecodableInput e) {
      return HandlerResult.deadNow(FailureReason.SERIALIZATION_ERROR, e.getMessage());
    }
    String timeoutMs = context.headers().get(ActivityHeaders.TIMEOUT_MS);
    if (timeoutMs == null) {
      Object output;
      try {
        output = registration.code().run(new WorkerActivityContext(context), input);
      } catch (SlowDownException e) {
        return HandlerResult.slowDown(e.delay());
      }
      return HandlerResult.complete(mapper.writeValueAsString(output));
    }
    // The call's own timeout: interrupt the run when it passes, as the worker does for its own.
    Duration timeout = Duration.ofMillis(Long.parseLong(timeoutMs));
    ActivityInvocation.Ending ending =
        ActivityInvocation.within(
            TIMEOUTS,
            timeout,
            () -> registration.code().run(new WorkerActivityContext(context), input));
    if (ending.timedOut()) {
      return HandlerResult.fail(
          FailureReason.TIMEOUT_EXCEEDED,
          "activity " + registration.name() + " ran longer than its call's timeout of " + timeout);
    }
    if (ending.thrown() instanceof SlowDownException e) {
      return HandlerResult.slowDown(e.delay());
    }
    if (ending.thrown() != null) {
      throw ending.thrown();
    }
    return HandlerResult.complete(mapper.writeValueAsString(ending.value()));
  }
}
