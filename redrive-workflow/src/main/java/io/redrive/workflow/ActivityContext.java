package io.redrive.workflow;

/**
 * What an activity knows about the call it runs: which instance and command scheduled it, which
 * delivery of its message this is, and the steps earlier deliveries finished. Used by the one
 * thread that runs the activity.
 *
 * <p>Two counters, two budgets: {@link #attempt()} counts deliveries of this message (the poison
 * budget, {@link #maxAttempts()}); {@link #retryNumber()} counts the {@link RetryPolicy} retries
 * the orchestration scheduled, each a new message with a fresh delivery budget.
 */
public interface ActivityContext {
  /** The instance whose orchestration scheduled this call. */
  String instanceId();

  /** The execution that scheduled it (1, then +1 for each continue-as-new). */
  int executionId();

  /** The call's command number in its instance: unique per instance, also across executions. */
  long activityId();

  /** The registered activity name. */
  String activityName();

  /** This delivery of the message: 1 for the first. */
  int attempt();

  /** Deliveries allowed before the message is poison. */
  int maxAttempts();

  /** True when a delivery ending without a result now would poison the message. */
  boolean isLastAttempt();

  /** 0 for the first scheduling of the call; n for the n-th retry by its {@link RetryPolicy}. */
  int retryNumber();

  /**
   * {@code "<instanceId>/<activityId>"}: the same for every delivery and every retry of this call,
   * and different for every other call, so a side effect can be deduplicated with it.
   */
  String idempotencyKey();

  /** The worker running this delivery (as recorded in the message's attempt history). */
  String workerId();

  /**
   * True once the worker wants this activity to stop (timeout or shutdown); the thread is also
   * interrupted. Long-running activities should check it between units of work.
   */
  boolean isCancelled();

  /** True when step {@code step} (0–62) was marked done by this or an earlier delivery. */
  boolean isStepDone(int step);

  /**
   * Records step {@code step} (0–62) as done, in the store at once, so a later delivery of this
   * message can skip it. A retry by the {@link RetryPolicy} is a new message and starts with no
   * steps done.
   *
   * @throws IllegalArgumentException when {@code step} is outside 0–62
   * @throws io.redrive.error.LeaseLostException when this delivery no longer holds its lease
   */
  void markStepDone(int step);
}
