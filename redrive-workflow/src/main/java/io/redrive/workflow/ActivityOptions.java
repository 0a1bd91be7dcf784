package io.redrive.workflow;

import io.redrive.message.MessageKeys;
import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.QueueNames;
import java.time.Duration;

/**
 * How one activity call runs, given at the call site ({@link
 * OrchestrationContext#callActivity(String, Object, com.fasterxml.jackson.core.type.TypeReference,
 * ActivityOptions)}). Immutable. Build with {@link #builder()} or start from {@link #defaults()}
 * and use the withers.
 *
 * <p>A queued activity is a message, so its queue's priorities and flow limits apply to it as to
 * any message: {@code priority} and {@code limitKey} are the message's (docs/engine.md,
 * "Priorities" and "Flow limits").
 *
 * @param queue the workflow-owned queue the activity message goes to, or null for the
 *     registration's (by default {@link #DEFAULT_QUEUE}); a valid queue name
 * @param timeout the longest one try may run before it fails as timed out, or null for the
 *     registration's; positive
 * @param retry the application retries of this call; null is read as {@link RetryPolicy#none()}, so
 *     the accessor never returns null
 * @param placement where the call runs; null is read as {@link ActivityPlacement#AUTO}
 * @param priority the activity message's priority, 0–9 (higher is served first), or null for its
 *     queue's {@code defaultPriority}; every retry of the call keeps it
 * @param limitKey the key the activity queue's flow limits count the message under (a tenant, a
 *     user, a host), or null: it then counts toward the queue-wide limits only; every retry of the
 *     call keeps it
 */
public record ActivityOptions(
    String queue,
    Duration timeout,
    RetryPolicy retry,
    ActivityPlacement placement,
    Integer priority,
    String limitKey) {

  /** The workflow-owned queue activities run in unless their options or registration name one. */
  public static final String DEFAULT_QUEUE = WorkflowDefaults.ACTIVITY_QUEUE;

  private static final ActivityOptions DEFAULTS =
      new ActivityOptions(null, null, null, null, null, null);

  /**
   * @throws IllegalArgumentException naming the option and value when the queue is not a queue
   *     name, the timeout is not positive, the priority is outside 0–9 or the limit key is not a
   *     message key (as an enqueue's {@code priority} and {@code limitKey})
   */
  public ActivityOptions {
    if (queue != null) {
      QueueNames.require("queue", queue);
    }
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException("timeout: must be positive, was " + timeout);
    }
    if (priority != null) {
      PriorityPolicy.requirePriority("priority", priority);
    }
    MessageKeys.require("limitKey", limitKey);
    retry = retry == null ? RetryPolicy.none() : retry;
    placement = placement == null ? ActivityPlacement.AUTO : placement;
  }

  /** Options with the queue's default priority and no limit key. */
  public ActivityOptions(
      String queue, Duration timeout, RetryPolicy retry, ActivityPlacement placement) {
    this(queue, timeout, retry, placement, null, null);
  }

  /** Options with the default placement ({@link ActivityPlacement#AUTO}). */
  public ActivityOptions(String queue, Duration timeout, RetryPolicy retry) {
    this(queue, timeout, retry, null);
  }

  /** The defaults, run in the turn's process when this node registers the activity. */
  public static ActivityOptions local() {
    return DEFAULTS.withPlacement(ActivityPlacement.LOCAL);
  }

  /** The defaults, always run as a queue message. */
  public static ActivityOptions queued() {
    return DEFAULTS.withPlacement(ActivityPlacement.QUEUED);
  }

  /** The registration's queue and timeout, no retries. */
  public static ActivityOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** These options with {@code value} as the queue (null: the registration's). */
  public ActivityOptions withQueue(String value) {
    return new ActivityOptions(value, timeout, retry, placement, priority, limitKey);
  }

  /** These options with {@code value} as the timeout (null: the registration's). */
  public ActivityOptions withTimeout(Duration value) {
    return new ActivityOptions(queue, value, retry, placement, priority, limitKey);
  }

  /** These options with {@code value} as the retry policy (null: none). */
  public ActivityOptions withRetry(RetryPolicy value) {
    return new ActivityOptions(queue, timeout, value, placement, priority, limitKey);
  }

  /** These options with {@code value} as the placement (null: {@link ActivityPlacement#AUTO}). */
  public ActivityOptions withPlacement(ActivityPlacement value) {
    return new ActivityOptions(queue, timeout, retry, value, priority, limitKey);
  }

  /** These options with {@code value} as the priority (null: the queue's default). */
  public ActivityOptions withPriority(Integer value) {
    return new ActivityOptions(queue, timeout, retry, placement, value, limitKey);
  }

  /** These options with {@code value} as the limit key (null: none). */
  public ActivityOptions withLimitKey(String value) {
    return new ActivityOptions(queue, timeout, retry, placement, priority, value);
  }

  /** Builder of {@link ActivityOptions}; unset fields are the defaults. Not thread-safe. */
  public static final class Builder {
    private String queue;
    private Duration timeout;
    private RetryPolicy retry;
    private ActivityPlacement placement;
    private Integer priority;
    private String limitKey;

    private Builder() {}

    public Builder queue(String value) {
      this.queue = value;
      return this;
    }

    public Builder timeout(Duration value) {
      this.timeout = value;
      return this;
    }

    public Builder retry(RetryPolicy value) {
      this.retry = value;
      return this;
    }

    public Builder placement(ActivityPlacement value) {
      this.placement = value;
      return this;
    }

    /** 0–9, higher served first; null (the default) takes the queue's {@code defaultPriority}. */
    public Builder priority(Integer value) {
      this.priority = value;
      return this;
    }

    /** The key the activity queue's flow limits count the message under; null for none. */
    public Builder limitKey(String value) {
      this.limitKey = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException as the record's constructor
     */
    public ActivityOptions build() {
      return new ActivityOptions(queue, timeout, retry, placement, priority, limitKey);
    }
  }
}
