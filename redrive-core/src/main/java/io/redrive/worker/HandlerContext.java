package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.lease.LeasedMessage;
import java.util.Map;

/**
 * What a handler knows about the delivery it runs: the message, which attempt this is, and the
 * steps finished by earlier attempts (partial completion). {@link #markStepDone} records a step at
 * once, so it survives a failure or a crash of this attempt. Used by one handler thread.
 */
public final class HandlerContext {
  /** Highest step number {@link #markStepDone} accepts (bits of a long, sign bit excluded). */
  public static final int MAX_STEP = 62;

  private final LeasedMessage message;
  private final String workerId;
  private final Redrive redrive;
  private volatile long progress;
  private volatile boolean cancelled;

  HandlerContext(LeasedMessage message, String workerId, Redrive redrive) {
    this.message = message;
    this.workerId = workerId;
    this.redrive = redrive;
    this.progress = message.progress();
  }

  public LeasedMessage message() {
    return message;
  }

  public String id() {
    return message.id();
  }

  public String type() {
    return message.type();
  }

  public String payload() {
    return message.payload();
  }

  public Map<String, String> headers() {
    return message.headers();
  }

  /** This delivery's number: 1 for the first. */
  public int attempt() {
    return message.attempt();
  }

  public int maxAttempts() {
    return message.maxAttempts();
  }

  /** True when a failure now would not be retried for lack of attempts. */
  public boolean isLastAttempt() {
    return message.attempt() >= message.maxAttempts();
  }

  /** The worker running this delivery (as recorded in the attempt history). */
  public String workerId() {
    return workerId;
  }

  /** Steps finished so far, by earlier attempts and this one, as a bitmask. */
  public long progress() {
    return progress;
  }

  /** True when step {@code step} (0–62) finished in this or an earlier attempt. */
  public boolean isStepDone(int step) {
    return (progress & bit(step)) != 0;
  }

  /**
   * Records step {@code step} (0–62) as finished, in the store at once.
   *
   * @throws io.redrive.error.LeaseLostException if this delivery no longer holds the lease
   */
  public void markStepDone(int step) {
    long bit = bit(step);
    progress = redrive.recordProgress(message.token(), bit);
  }

  /**
   * True once the worker wants this handler to stop (timeout or shutdown); the thread is also
   * interrupted. Long-running handlers should check it between units of work.
   */
  public boolean isCancelled() {
    return cancelled || Thread.currentThread().isInterrupted();
  }

  void cancel() {
    cancelled = true;
  }

  private static long bit(int step) {
    if (step < 0 || step > MAX_STEP) {
      throw new IllegalArgumentException("step: must be between 0 and 62, was " + step);
    }
    return 1L << step;
  }
}
