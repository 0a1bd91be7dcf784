package io.redrive.workflow.runtime;

import io.redrive.workflow.ActivityContext;
import java.util.BitSet;

/**
 * The {@link ActivityContext} of a local activity's try. Its step bits live in memory only: a try
 * that dies takes them with it (a queued activity keeps them on its message). Entered by the thread
 * running the try.
 */
final class LocalActivityContext implements ActivityContext {
  private final String instanceId;
  private final int executionId;
  private final LocalRun run;
  private final int attempt;
  private final int maxAttempts;
  private final String node;
  private final BitSet steps = new BitSet();

  LocalActivityContext(
      String instanceId, int executionId, LocalRun run, int attempt, int maxAttempts, String node) {
    this.instanceId = instanceId;
    this.executionId = executionId;
    this.run = run;
    this.attempt = attempt;
    this.maxAttempts = maxAttempts;
    this.node = node;
  }

  @Override
  public String instanceId() {
    return instanceId;
  }

  @Override
  public int executionId() {
    return executionId;
  }

  @Override
  public long activityId() {
    return run.seq();
  }

  @Override
  public String activityName() {
    return run.name();
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public int maxAttempts() {
    return maxAttempts;
  }

  @Override
  public boolean isLastAttempt() {
    return attempt >= maxAttempts;
  }

  @Override
  public int retryNumber() {
    return run.retryNumber();
  }

  @Override
  public String idempotencyKey() {
    return instanceId + "/" + run.seq();
  }

  @Override
  public String workerId() {
    return node;
  }

  @Override
  public boolean isCancelled() {
    return Thread.currentThread().isInterrupted();
  }

  @Override
  public synchronized boolean isStepDone(int step) {
    return steps.get(step);
  }

  @Override
  public synchronized void markStepDone(int step) {
    steps.set(step);
  }
}
