package io.redrive.workflow.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.failure.FailureReason;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerContext;
import io.redrive.worker.HandlerRegistration;
import io.redrive.worker.HandlerResult;
import io.redrive.workflow.ActivityRegistration;

/**
 * Runs a registered activity as a worker handler: decodes the message's input, calls the activity
 * and hands its result back as JSON. A throw is left to the worker, whose classifier turns it into
 * the failure the orchestration sees; an input that does not decode fails the activity at once
 * (SERIALIZATION_ERROR), since another delivery would not decode it either.
 */
public final class ActivityHandler implements Handler {
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
          mapper.readValue(
              context.payload() == null ? "null" : context.payload(),
              mapper.getTypeFactory().constructType(registration.inputType()));
    } catch (JsonProcessingException e) {
      return HandlerResult.deadNow(
          FailureReason.SERIALIZATION_ERROR,
          "activity "
              + registration.name()
              + " input does not decode as "
              + registration.inputType().getTypeName()
              + ": "
              + e.getOriginalMessage());
    }
    Object output = registration.code().run(new WorkerActivityContext(context), input);
    return HandlerResult.complete(mapper.writeValueAsString(output));
  }
}
