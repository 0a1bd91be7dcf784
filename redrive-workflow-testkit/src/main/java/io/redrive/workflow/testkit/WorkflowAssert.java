package io.redrive.workflow.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.TimelineEntry;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowFailure;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Assertions on one instance as it is when each is called: started, completed with an output,
 * failed with a reason, message or exception type. A failed assertion tells the story: the status,
 * the output or failure, and the last entries of the instance's timeline. Returned by {@link
 * WorkflowTestEnvironment#assertInstance}.
 */
public final class WorkflowAssert {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int STORY_LINES = 8;

  private final WorkflowClient client;
  private final String instanceId;

  WorkflowAssert(WorkflowClient client, String instanceId) {
    this.client = client;
    this.instanceId = Objects.requireNonNull(instanceId, "instanceId");
  }

  /** Asserts that the instance exists (it was started and its start committed). */
  public WorkflowAssert isStarted() {
    info();
    return this;
  }

  /** Asserts that there is no instance with this id (never started, or its start rolled back). */
  public void isNotStarted() {
    client
        .get(instanceId)
        .ifPresent(
            i -> fail("expected no instance " + instanceId + ", but it is " + i.status(), i));
  }

  /** Asserts that the instance has status {@code expected}. */
  public WorkflowAssert hasStatus(InstanceStatus expected) {
    InstanceInfo info = info();
    if (info.status() != expected) {
      fail("expected instance " + instanceId + " to be " + expected, info);
    }
    return this;
  }

  /** Asserts that the instance completed; returns its output JSON. */
  public String isCompleted() {
    return hasStatus(InstanceStatus.COMPLETED).info().output();
  }

  /**
   * Asserts that the instance completed with {@code expected}: compared as JSON with its output
   * after writing {@code expected} as JSON (a record, a map, a number, a string).
   */
  public WorkflowAssert isCompletedWith(Object expected) {
    return isCompletedWithJson(write(expected));
  }

  /** Asserts that the instance completed with output JSON equal to {@code json} (as JSON). */
  public WorkflowAssert isCompletedWithJson(String json) {
    String output = isCompleted();
    if (!read(json).equals(read(output))) {
      fail("expected instance " + instanceId + " to complete with " + json, info());
    }
    return this;
  }

  /** Asserts that the instance completed; returns its output read as {@code type}. */
  public <T> T output(Class<T> type) {
    try {
      return JSON.readValue(isCompleted(), type);
    } catch (JsonProcessingException e) {
      throw new AssertionError("output of " + instanceId + " does not read as " + type, e);
    }
  }

  /** Asserts that the instance failed; returns its failure. */
  public WorkflowFailure isFailed() {
    return hasStatus(InstanceStatus.FAILED).info().failure();
  }

  /** Asserts that the instance failed with reason {@code reason} (e.g. POISON). */
  public WorkflowAssert isFailedWithReason(String reason) {
    WorkflowFailure f = isFailed();
    if (!f.reason().equals(reason)) {
      fail("expected instance " + instanceId + " to fail with reason " + reason, info());
    }
    return this;
  }

  /**
   * Asserts that the instance failed and its failure, or a failure it wraps (the activity's under
   * the orchestration's), has a message or display containing {@code text}.
   */
  public WorkflowAssert isFailedWithMessageContaining(String text) {
    isFailed();
    if (chainHas(info().failure(), f -> f.message().contains(text) || f.display().contains(text))) {
      return this;
    }
    fail(
        "expected instance " + instanceId + " to fail with a message containing \"" + text + "\"",
        info());
    return this;
  }

  /**
   * Asserts that the instance failed and its failure, or one it wraps, was caused by an exception
   * of class {@code type} (as recorded: the class name, as the type or as the worker writes it in
   * the message, {@code HANDLER_EXCEPTION java.lang.IllegalStateException: …}).
   */
  public WorkflowAssert isFailedWithType(Class<? extends Throwable> type) {
    isFailed();
    // Recorded as the failure's type, or (an activity's, as the worker recorded it) in its message.
    String name = type.getName();
    if (!chainHas(
        info().failure(),
        f ->
            name.equals(f.type())
                || f.message()
                    .matches("(?s)(.*\\s)?" + java.util.regex.Pattern.quote(name) + ":.*"))) {
      fail("expected instance " + instanceId + " to fail by a " + type.getName(), info());
    }
    return this;
  }

  private static boolean chainHas(
      WorkflowFailure f, java.util.function.Predicate<WorkflowFailure> test) {
    for (WorkflowFailure c = f; c != null; c = c.cause()) {
      if (test.test(c) || (c.lastAttempt() != null && test.test(c.lastAttempt()))) {
        return true;
      }
    }
    return false;
  }

  private InstanceInfo info() {
    Optional<InstanceInfo> info = client.get(instanceId);
    if (info.isEmpty()) {
      throw new AssertionError("expected instance " + instanceId + " to exist, but there is none");
    }
    return info.get();
  }

  private void fail(String expectation, InstanceInfo info) {
    StringBuilder b = new StringBuilder(expectation).append(", but it is ").append(info.status());
    if (info.output() != null) {
      b.append(" with output ").append(info.output());
    }
    if (info.failure() != null) {
      b.append(" with failure ").append(info.failure().display());
      for (WorkflowFailure c = info.failure().cause(); c != null; c = c.cause()) {
        b.append("\n  caused by ").append(c.display());
      }
    }
    List<TimelineEntry> timeline = client.timeline(instanceId);
    b.append("\nlast timeline entries:");
    for (TimelineEntry e :
        timeline.subList(Math.max(0, timeline.size() - STORY_LINES), timeline.size())) {
      b.append("\n  ").append(describe(e));
    }
    throw new AssertionError(b.toString());
  }

  private static String describe(TimelineEntry e) {
    StringBuilder b = new StringBuilder().append(e.at()).append(' ');
    if (e.event() != null) {
      b.append('#').append(e.eventId()).append(' ').append(e.event());
    } else {
      b.append(e.kind()).append(" attempt ").append(e.attempt()).append(": ").append(e.outcome());
    }
    if (e.name() != null) {
      b.append(' ').append(e.name());
    }
    if (e.message() != null) {
      b.append(" — ").append(e.message());
    }
    return b.toString();
  }

  private static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("expected: cannot be written as JSON: " + value, e);
    }
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json == null ? "null" : json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + json, e);
    }
  }
}
