package io.redrive.workflow.testkit;

import io.redrive.workflow.Activity;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What a stubbed activity does in a {@link WorkflowTestEnvironment} instead of its registered code:
 * answer with a function of its input, return a fixed result, fail, or run its registered code —
 * and on chosen deliveries, crash as a worker that dies mid-activity does. Immutable.
 *
 * <pre>{@code
 * env.stub("charge", ActivityStub.returning(5800));
 * env.stub("charge", ActivityStub.answering((Integer cents) -> 10_000 - cents));
 * env.stub("charge", ActivityStub.failing("card declined"));
 * env.stub("charge", ActivityStub.registered().crashingOnAttempt(1));
 * }</pre>
 */
public final class ActivityStub {
  private final Activity<Object, Object> code;
  private final Set<Integer> crashes;
  private final boolean crashAlways;

  private ActivityStub(Activity<Object, Object> code, Set<Integer> crashes, boolean crashAlways) {
    this.code = code;
    this.crashes = Set.copyOf(crashes);
    this.crashAlways = crashAlways;
  }

  /** Runs {@code code}, which sees the call's {@link io.redrive.workflow.ActivityContext}. */
  @SuppressWarnings("unchecked")
  public static <I> ActivityStub of(Activity<I, ?> code) {
    Objects.requireNonNull(code, "code");
    return new ActivityStub((Activity<Object, Object>) (Activity<?, ?>) code, Set.of(), false);
  }

  /** Answers {@code fn} of the call's input (read as the registered input type). */
  @SuppressWarnings("unchecked")
  public static <I> ActivityStub answering(Function<I, ?> fn) {
    Objects.requireNonNull(fn, "fn");
    return new ActivityStub((ctx, input) -> fn.apply((I) input), Set.of(), false);
  }

  /** Returns {@code result} (written as JSON; null for JSON null) whatever the input. */
  public static ActivityStub returning(Object result) {
    return new ActivityStub((ctx, input) -> result, Set.of(), false);
  }

  /**
   * Throws an {@link ActivityStubException} with {@code message}: the activity fails as an
   * application failure (reason {@code HANDLER_EXCEPTION}, type {@code ActivityStubException}),
   * which the call's retry policy may retry.
   */
  public static ActivityStub failing(String message) {
    Objects.requireNonNull(message, "message");
    return new ActivityStub(
        (ctx, input) -> {
          throw new ActivityStubException(message);
        },
        Set.of(),
        false);
  }

  /** Throws {@code failure} (the same instance each time), as the activity's code would. */
  public static ActivityStub failing(Exception failure) {
    Objects.requireNonNull(failure, "failure");
    return new ActivityStub(
        (ctx, input) -> {
          throw failure;
        },
        Set.of(),
        false);
  }

  /** Runs the activity's registered code: with {@link #crashingOnAttempt}, crashes only. */
  public static ActivityStub registered() {
    return new ActivityStub(null, Set.of(), false);
  }

  /**
   * This stub, but on the given deliveries of a message (1 for the first) the worker vanishes
   * mid-activity: nothing is settled, the lease runs out once the clock passes it, and the message
   * is delivered again or poisoned by the queue's rules (attempts, {@code maxCrashes}).
   *
   * @throws IllegalArgumentException for an attempt below 1
   */
  public ActivityStub crashingOnAttempt(int... attempts) {
    Set<Integer> all = new TreeSet<>(crashes);
    for (int a : attempts) {
      if (a < 1) {
        throw new IllegalArgumentException(
            "attempts: deliveries count from 1, was " + Arrays.toString(attempts));
      }
      all.add(a);
    }
    return new ActivityStub(code, all, crashAlways);
  }

  /** This stub, but every delivery crashes: the message ends poisoned. */
  public ActivityStub crashingOnEveryAttempt() {
    return new ActivityStub(code, crashes, true);
  }

  /** The stub's code, or null for the registered code. */
  Activity<Object, Object> code() {
    return code;
  }

  boolean crashesOn(int attempt) {
    return crashAlways || crashes.contains(attempt);
  }

  @Override
  public String toString() {
    return "ActivityStub["
        + (code == null ? "registered code" : "stub code")
        + (crashAlways ? ", crashing on every attempt" : "")
        + (crashes.isEmpty() ? "" : ", crashing on attempts " + crashes)
        + "]";
  }
}
