package io.redrive.workflow;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.queue.QueueNames;
import io.redrive.worker.FailureClassifier;
import java.lang.reflect.Type;
import java.time.Duration;

/**
 * An activity's code bound to its name, with the types its input and result are read and written
 * as, and how its messages run. Activities are versioned by name: a changed contract is a new name.
 * Immutable; create with {@link #of} and adjust with the withers.
 *
 * @param name the name orchestrations call it by (and the type of its messages): 1–200 characters,
 *     no control characters
 * @param inputType the type its input JSON is read as
 * @param outputType the type its result is written as (and read as by a caller that does not say)
 * @param code the activity, typed loosely so the runtime can call it with what it deserialized
 * @param timeout the longest one try may run before it fails as timed out, or null for none (a call
 *     can still give its own in {@link ActivityOptions#timeout()}); positive
 * @param queue the workflow-owned queue its messages go to unless a call names another; null is
 *     read as {@link WorkflowDefaults#ACTIVITY_QUEUE}, so the accessor never returns null
 * @param classifier maps what it throws to a failure reason (and so to retryable or not), or null
 *     for the runtime's
 */
public record ActivityRegistration(
    String name,
    Type inputType,
    Type outputType,
    Activity<Object, Object> code,
    Duration timeout,
    String queue,
    FailureClassifier classifier) {

  /**
   * @throws IllegalArgumentException naming the option and value when one is missing or malformed
   */
  public ActivityRegistration {
    WorkflowRegistry.requireName("activity name", name);
    if (inputType == null) {
      throw new IllegalArgumentException("inputType: is required for activity \"" + name + "\"");
    }
    if (outputType == null) {
      throw new IllegalArgumentException("outputType: is required for activity \"" + name + "\"");
    }
    if (code == null) {
      throw new IllegalArgumentException("code: is required for activity \"" + name + "\"");
    }
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException(
          "timeout: must be positive for activity \"" + name + "\", was " + timeout);
    }
    queue = QueueNames.require("queue", queue == null ? WorkflowDefaults.ACTIVITY_QUEUE : queue);
  }

  /**
   * {@code code} under {@code name}, reading its input as {@code in} and writing its result as
   * {@code out}; no timeout, the default queue and classifier.
   *
   * @throws IllegalArgumentException naming the option and value when one is missing or malformed
   */
  public static <I, O> ActivityRegistration of(
      String name, Class<I> in, Class<O> out, Activity<I, O> code) {
    return new ActivityRegistration(name, in, out, loose(code), null, null, null);
  }

  /**
   * As {@link #of(String, Class, Class, Activity)}, for generic types such as {@code
   * List<OrderLine>}.
   */
  public static <I, O> ActivityRegistration of(
      String name, TypeReference<I> in, TypeReference<O> out, Activity<I, O> code) {
    return new ActivityRegistration(
        name,
        in == null ? null : in.getType(),
        out == null ? null : out.getType(),
        loose(code),
        null,
        null,
        null);
  }

  /** This registration with {@code value} as the timeout of one try (null: none). */
  public ActivityRegistration withTimeout(Duration value) {
    return new ActivityRegistration(name, inputType, outputType, code, value, queue, classifier);
  }

  /** This registration with {@code value} as its queue (null: the default queue). */
  public ActivityRegistration withQueue(String value) {
    return new ActivityRegistration(name, inputType, outputType, code, timeout, value, classifier);
  }

  /** This registration with {@code value} as its failure classifier (null: the runtime's). */
  public ActivityRegistration withClassifier(FailureClassifier value) {
    return new ActivityRegistration(name, inputType, outputType, code, timeout, queue, value);
  }

  // Safe: the runtime only passes what it deserialized as inputType, which is I.
  @SuppressWarnings("unchecked")
  private static <I, O> Activity<Object, Object> loose(Activity<I, O> code) {
    return (Activity<Object, Object>) (Activity<?, ?>) code;
  }
}
