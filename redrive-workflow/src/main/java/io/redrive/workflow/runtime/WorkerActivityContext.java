package io.redrive.workflow.runtime;

import io.redrive.worker.HandlerContext;
import io.redrive.workflow.ActivityContext;

/** An {@link ActivityContext} over the worker's handler context and the message's headers. */
final class WorkerActivityContext implements ActivityContext {
  private final HandlerContext handler;

  WorkerActivityContext(HandlerContext handler) {
    this.handler = handler;
  }

  private String header(String name) {
    String v = handler.headers().get(name);
    if (v == null) {
      throw new IllegalStateException(
          "activity message " + handler.id() + " has no " + name + " header");
    }
    return v;
  }

  @Override
  public String instanceId() {
    return header(ActivityHeaders.INSTANCE);
  }

  @Override
  public int executionId() {
    return Integer.parseInt(header(ActivityHeaders.EXECUTION));
  }

  @Override
  public long activityId() {
    return Long.parseLong(header(ActivityHeaders.ACTIVITY));
  }

  @Override
  public String activityName() {
    return handler.type();
  }

  @Override
  public int attempt() {
    return handler.attempt();
  }

  @Override
  public int maxAttempts() {
    return handler.maxAttempts();
  }

  @Override
  public boolean isLastAttempt() {
    return handler.isLastAttempt();
  }

  @Override
  public int retryNumber() {
    String v = handler.headers().get(ActivityHeaders.RETRY);
    return v == null ? 0 : Integer.parseInt(v);
  }

  @Override
  public String idempotencyKey() {
    return instanceId() + "/" + activityId();
  }

  @Override
  public String workerId() {
    return handler.workerId();
  }

  @Override
  public boolean isCancelled() {
    return handler.isCancelled();
  }

  @Override
  public boolean isStepDone(int step) {
    return handler.isStepDone(step);
  }

  @Override
  public void markStepDone(int step) {
    handler.markStepDone(step);
  }
}
