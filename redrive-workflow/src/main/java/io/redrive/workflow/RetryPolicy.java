package io.redrive.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Application retries of an activity or a sub-orchestration, executed deterministically by the
 * orchestration: each retry is a RETRY timer and a new call in the history, so a replay takes the
 * same decisions. Delivery-level failures (poison) are never retried by a policy.
 *
 * <p>{@code maxAttempts} counts every try, the first included: {@code exponential(3, ...)} is the
 * first call plus two retries. The default, {@link #none()}, does not retry — an unlimited default
 * surprises users more than a missing retry does.
 *
 * <p>Immutable and thread-safe; {@link #doNotRetry} and {@link #totalTimeout} return new policies.
 */
public final class RetryPolicy {
  private enum Kind {
    NONE,
    FIXED,
    EXPONENTIAL
  }

  private static final RetryPolicy NONE =
      new RetryPolicy(Kind.NONE, 1, Duration.ZERO, 1.0, Duration.ZERO, List.of(), null);

  private final Kind kind;
  private final int maxAttempts;
  private final Duration first;
  private final double multiplier;
  private final Duration max;
  private final List<String> doNotRetry;
  private final Duration totalTimeout;

  private RetryPolicy(
      Kind kind,
      int maxAttempts,
      Duration first,
      double multiplier,
      Duration max,
      List<String> doNotRetry,
      Duration totalTimeout) {
    this.kind = kind;
    this.maxAttempts = maxAttempts;
    this.first = first;
    this.multiplier = multiplier;
    this.max = max;
    this.doNotRetry = doNotRetry;
    this.totalTimeout = totalTimeout;
  }

  /** No retries: a failure reaches the orchestration code at once. The default. */
  public static RetryPolicy none() {
    return NONE;
  }

  /**
   * Retries after {@code first}, {@code first·multiplier}, {@code first·multiplier²}, ... each
   * capped at {@code max}.
   *
   * @param maxAttempts tries in all, the first included (at least 1; 1 = no retry)
   * @param first the delay before the first retry (positive)
   * @param multiplier the growth of each next delay (at least 1.0)
   * @param max the longest delay (at least {@code first})
   * @throws IllegalArgumentException naming the option and value when one is out of range
   */
  public static RetryPolicy exponential(
      int maxAttempts, Duration first, double multiplier, Duration max) {
    requireMaxAttempts(maxAttempts);
    requirePositive("first", first);
    if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
      throw new IllegalArgumentException(
          "multiplier: must be a finite number of at least 1.0, was " + multiplier);
    }
    requirePositive("max", max);
    if (max.compareTo(first) < 0) {
      throw new IllegalArgumentException("max: must be at least first (" + first + "), was " + max);
    }
    return new RetryPolicy(Kind.EXPONENTIAL, maxAttempts, first, multiplier, max, List.of(), null);
  }

  /**
   * Retries after the same {@code delay} each time.
   *
   * @param maxAttempts tries in all, the first included (at least 1; 1 = no retry)
   * @param delay the delay before each retry (positive)
   * @throws IllegalArgumentException naming the option and value when one is out of range
   */
  public static RetryPolicy fixed(int maxAttempts, Duration delay) {
    requireMaxAttempts(maxAttempts);
    requirePositive("delay", delay);
    return new RetryPolicy(Kind.FIXED, maxAttempts, delay, 1.0, delay, List.of(), null);
  }

  /**
   * This policy, also never retrying a failure whose {@link WorkflowFailure#reason() reason} or
   * exception {@link WorkflowFailure#type() type} is one of {@code failureReasonsOrExceptionTypes}.
   * A type matches by its fully qualified name ({@code com.example.CardDeclinedException}) or its
   * simple name ({@code CardDeclinedException}; for a nested class also {@code Outer$Inner}).
   * Matching is case-sensitive. Entries add to the ones already given.
   *
   * @throws IllegalArgumentException when an entry is null or blank
   */
  public RetryPolicy doNotRetry(String... failureReasonsOrExceptionTypes) {
    if (failureReasonsOrExceptionTypes == null) {
      throw new IllegalArgumentException("doNotRetry: is required, was null");
    }
    Set<String> entries = new LinkedHashSet<>(doNotRetry);
    for (String entry : failureReasonsOrExceptionTypes) {
      if (entry == null || entry.isBlank()) {
        throw new IllegalArgumentException(
            "doNotRetry: entries must not be blank, was " + (entry == null ? "null" : "\"\""));
      }
      entries.add(entry.strip());
    }
    return new RetryPolicy(
        kind, maxAttempts, first, multiplier, max, List.copyOf(entries), totalTimeout);
  }

  /**
   * This policy, scheduling no retry that would start later than {@code timeout} after the first
   * call.
   *
   * @throws IllegalArgumentException when {@code timeout} is null, zero or negative
   */
  public RetryPolicy totalTimeout(Duration timeout) {
    requirePositive("totalTimeout", timeout);
    return new RetryPolicy(kind, maxAttempts, first, multiplier, max, doNotRetry, timeout);
  }

  /** Tries in all, the first included; 1 for {@link #none()}. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * The delay before the next try, given that try {@code retryNumber} (0 = the first call, n = the
   * n-th retry) just failed with {@code failure} — or empty when the failure is final. Pure and
   * deterministic: the runtime calls it during replay, and tests can call it to check a policy.
   *
   * <p>Empty when: the policy is {@link #none()}; the tries are used up ({@code retryNumber + 1 >=
   * maxAttempts}); the failure is not {@link WorkflowFailure#retryable() retryable} or is a {@link
   * WorkflowFailure#isSystem() system} failure; its reason or type is a {@link #doNotRetry} entry;
   * or the retry would start past {@link #totalTimeout} ({@code sinceFirstCall + delay >
   * totalTimeout}).
   *
   * <p>The delay of retry n ({@code n = retryNumber + 1}): {@code first·multiplier^(n−1)} capped at
   * {@code max} for an exponential policy, the delay for a fixed one. A failure asking for a longer
   * {@link WorkflowFailure#retryAfterMs() retryAfterMs} gets that instead (still subject to the
   * total timeout).
   *
   * @param retryNumber the try that failed, 0 for the first call
   * @param failure how it failed
   * @param sinceFirstCall time from the first call to now (not negative)
   * @throws IllegalArgumentException when an argument is null or negative
   */
  public Optional<Duration> nextDelay(
      int retryNumber, WorkflowFailure failure, Duration sinceFirstCall) {
    if (retryNumber < 0) {
      throw new IllegalArgumentException("retryNumber: must not be negative, was " + retryNumber);
    }
    if (failure == null) {
      throw new IllegalArgumentException("failure: is required, was null");
    }
    if (sinceFirstCall == null || sinceFirstCall.isNegative()) {
      throw new IllegalArgumentException(
          "sinceFirstCall: must not be negative, was " + sinceFirstCall);
    }
    if (kind == Kind.NONE
        || retryNumber + 1 >= maxAttempts
        || !failure.retryable()
        || failure.isSystem()
        || isExcluded(failure)) {
      return Optional.empty();
    }
    Duration delay = delayOfRetry(retryNumber + 1);
    if (failure.retryAfterMs() != null) {
      Duration asked = Duration.ofMillis(failure.retryAfterMs());
      if (asked.compareTo(delay) > 0) {
        delay = asked;
      }
    }
    if (totalTimeout != null && sinceFirstCall.plus(delay).compareTo(totalTimeout) > 0) {
      return Optional.empty();
    }
    return Optional.of(delay);
  }

  private Duration delayOfRetry(int n) {
    if (kind == Kind.FIXED) {
      return first;
    }
    // In doubles so a large exponent saturates at max instead of overflowing Duration arithmetic.
    double nanos = nanos(first) * Math.pow(multiplier, n - 1);
    if (nanos >= nanos(max)) {
      return max;
    }
    return Duration.ofNanos(Math.round(nanos));
  }

  private static double nanos(Duration d) {
    return d.getSeconds() * 1e9 + d.getNano();
  }

  private boolean isExcluded(WorkflowFailure failure) {
    if (doNotRetry.contains(failure.reason())) {
      return true;
    }
    String type = failure.type();
    if (type == null || type.isEmpty()) {
      return false;
    }
    String simple = type.substring(type.lastIndexOf('.') + 1);
    String innermost = simple.substring(simple.lastIndexOf('$') + 1);
    return doNotRetry.contains(type)
        || doNotRetry.contains(simple)
        || doNotRetry.contains(innermost);
  }

  private static void requireMaxAttempts(int maxAttempts) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts: must be at least 1, was " + maxAttempts);
    }
  }

  private static void requirePositive(String field, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(field + ": must be positive, was " + value);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RetryPolicy p
        && kind == p.kind
        && maxAttempts == p.maxAttempts
        && first.equals(p.first)
        && Double.compare(multiplier, p.multiplier) == 0
        && max.equals(p.max)
        && doNotRetry.equals(p.doNotRetry)
        && Objects.equals(totalTimeout, p.totalTimeout);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, maxAttempts, first, multiplier, max, doNotRetry, totalTimeout);
  }

  /**
   * For logs, e.g. {@code RetryPolicy[exponential maxAttempts=3 first=PT1S multiplier=2.0 max=PT1M
   * doNotRetry=[CardDeclined] totalTimeout=PT10M]}.
   */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    switch (kind) {
      case NONE -> parts.add("none");
      case FIXED -> {
        parts.add("fixed");
        parts.add("maxAttempts=" + maxAttempts);
        parts.add("delay=" + first);
      }
      case EXPONENTIAL -> {
        parts.add("exponential");
        parts.add("maxAttempts=" + maxAttempts);
        parts.add("first=" + first);
        parts.add("multiplier=" + multiplier);
        parts.add("max=" + max);
      }
    }
    if (!doNotRetry.isEmpty()) {
      parts.add("doNotRetry=" + doNotRetry);
    }
    if (totalTimeout != null) {
      parts.add("totalTimeout=" + totalTimeout);
    }
    return "RetryPolicy[" + String.join(" ", parts) + "]";
  }
}
