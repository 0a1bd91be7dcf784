package io.redrive.workflow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A failure that crossed a durable boundary, as data (docs/workflows.md, "Failure semantics"): an
 * activity's failure, a child's, an orchestration's own. Stored in history and on the instance as
 * JSON; never a serialized Java exception.
 *
 * <p>A <em>system</em> failure ({@link #isSystem()}: poison, nondeterminism, an unreadable history,
 * a history limit) is never handed to orchestration code: it fails the instance before user code
 * runs and travels unchanged to every parent, each adding its id to {@link #via()}. Any other
 * failure is an <em>application</em> failure the orchestration sees as a catchable exception.
 *
 * @param reason a machine reason (e.g. POISON, HANDLER_EXCEPTION, ORCHESTRATION_EXCEPTION)
 * @param category lower-case category: application, infrastructure, configuration, poison,
 *     nondeterminism
 * @param message a human message
 * @param type the exception class that caused it, or null
 * @param stackTrace its stack trace, or null
 * @param retryable whether a {@link RetryPolicy} may retry it
 * @param retryAfterMs a delay the failing code asked for before a retry, or null
 * @param attempt the try it happened on, or null
 * @param maxAttempts the tries allowed, or null
 * @param target what a poison failure poisoned, or null
 * @param instanceId the instance it happened in, or null
 * @param executionId the execution it happened in, or null
 * @param activityName the activity it happened in, or null
 * @param activityId that activity's command number, or null
 * @param poisonedMessage for poison: the JSON of what was poisoned (never empty), else null
 * @param via the instances it travelled through on its way up, nearest first
 * @param lastAttempt for poison: how the last counted try ended (a turn's try, or the activity
 *     message's last delivery), or null; the display of a poison that has one ends with it
 * @param cause the failure this one wraps, or null
 * @param display the one line an operator reads
 */
public record WorkflowFailure(
    String reason,
    String category,
    String message,
    String type,
    String stackTrace,
    boolean retryable,
    Long retryAfterMs,
    Integer attempt,
    Integer maxAttempts,
    PoisonTarget target,
    String instanceId,
    Integer executionId,
    String activityName,
    Long activityId,
    String poisonedMessage,
    List<String> via,
    WorkflowFailure lastAttempt,
    WorkflowFailure cause,
    String display) {

  /** Reason of a failure that ran out of tries. */
  public static final String POISON = "POISON";

  /** Reason of a replay that did not match the history. */
  public static final String NONDETERMINISM = "NONDETERMINISM";

  /** Reason of a history that cannot be read. */
  public static final String HISTORY_UNREADABLE = "HISTORY_UNREADABLE";

  /** Reason of a history that would pass its limit. */
  public static final String HISTORY_LIMIT = "HISTORY_LIMIT";

  /** Reason of orchestration code that threw. */
  public static final String ORCHESTRATION_EXCEPTION = "ORCHESTRATION_EXCEPTION";

  /** Reason of a payload over the limit. */
  public static final String PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE";

  /** Reason of a terminated child, as its parent sees it. */
  public static final String TERMINATED = "TERMINATED";

  /** Reason of a child id already taken. */
  public static final String INSTANCE_EXISTS = "INSTANCE_EXISTS";

  private static final Set<String> SYSTEM_REASONS =
      Set.of(POISON, NONDETERMINISM, HISTORY_UNREADABLE, HISTORY_LIMIT);

  public WorkflowFailure {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("reason is required");
    }
    category = category == null ? "application" : category.toLowerCase(Locale.ROOT);
    message = message == null ? "" : message;
    via = via == null ? List.of() : List.copyOf(via);
    if (display == null || display.isBlank()) {
      display = reason + ": " + message;
    }
  }

  /**
   * True for a failure user code never sees (poison, nondeterminism, unreadable history, history
   * limit): it fails every instance on its way up unchanged.
   */
  public boolean isSystem() {
    return SYSTEM_REASONS.contains(reason);
  }

  /** An application failure: an activity or orchestration that threw or gave up. */
  public static WorkflowFailure application(
      String reason, String message, String type, String stackTrace, boolean retryable) {
    return new WorkflowFailure(
        reason,
        "application",
        message,
        type,
        stackTrace,
        retryable,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        List.of(),
        null,
        null,
        null);
  }

  /**
   * A failure of {@code reason} that happened in an instance, with no exception behind it: a
   * termination, a taken child id, a history limit, a payload over the limit.
   */
  public static WorkflowFailure of(
      String reason,
      String category,
      String message,
      String instanceId,
      Integer executionId,
      String display) {
    return new WorkflowFailure(
        reason,
        category,
        message,
        null,
        null,
        false,
        null,
        null,
        null,
        null,
        instanceId,
        executionId,
        null,
        null,
        null,
        List.of(),
        null,
        null,
        display);
  }

  /** The poison failure of an orchestration whose batch ran out of tries. */
  public static WorkflowFailure poisonedOrchestration(
      String instanceId,
      int executionId,
      int attempt,
      int maxAttempts,
      String poisonedMessage,
      WorkflowFailure lastAttempt) {
    return poison(
        PoisonTexts.withLastAttempt(
            PoisonTexts.orchestration(instanceId, attempt, maxAttempts), lastAttempt),
        attempt,
        maxAttempts,
        PoisonTarget.ORCHESTRATION,
        instanceId,
        executionId,
        null,
        null,
        poisonedMessage,
        lastAttempt);
  }

  /**
   * The crash-loop breaker's poison failure: the batch's lease ran out on {@code nodes} (as many as
   * {@code maxCrashes}) without a commit between, so each try killed or hung a node.
   */
  public static WorkflowFailure crashLoop(
      String instanceId,
      int executionId,
      List<String> nodes,
      int attempt,
      int maxCrashes,
      String poisonedMessage,
      WorkflowFailure lastAttempt) {
    return poison(
        PoisonTexts.crashLoop(instanceId, nodes, attempt, maxCrashes),
        attempt,
        null,
        PoisonTarget.ORCHESTRATION,
        instanceId,
        executionId,
        null,
        null,
        poisonedMessage,
        lastAttempt);
  }

  /**
   * The poison failure of an activity message that ran out of deliveries.
   *
   * @param lastAttempt how its last counted delivery ended (e.g. UNREGISTERED_HANDLER), or null
   */
  public static WorkflowFailure poisonedActivity(
      String instanceId,
      int executionId,
      String activityName,
      long activityId,
      int attempt,
      int maxAttempts,
      String poisonedMessage,
      WorkflowFailure lastAttempt) {
    return poison(
        PoisonTexts.withLastAttempt(
            PoisonTexts.activity(activityName, activityId, attempt, maxAttempts), lastAttempt),
        attempt,
        maxAttempts,
        PoisonTarget.ACTIVITY,
        instanceId,
        executionId,
        activityName,
        activityId,
        poisonedMessage,
        lastAttempt);
  }

  /**
   * The poison failure of an activity message that the crash-loop breaker of its queue stopped: its
   * lease ran out on {@code workers} (as many as the queue's {@code maxCrashes}). Its display names
   * the crashes already, so the last delivery is kept in {@code lastAttempt} only.
   */
  public static WorkflowFailure crashLoopActivity(
      String instanceId,
      int executionId,
      String activityName,
      long activityId,
      List<String> workers,
      int attempt,
      int maxAttempts,
      int maxCrashes,
      String poisonedMessage,
      WorkflowFailure lastAttempt) {
    return poison(
        PoisonTexts.activityCrashLoop(activityName, activityId, workers, attempt, maxCrashes),
        attempt,
        maxAttempts,
        PoisonTarget.ACTIVITY,
        instanceId,
        executionId,
        activityName,
        activityId,
        poisonedMessage,
        lastAttempt);
  }

  /** The poison failure of an orchestration whose history could not be read, try after try. */
  public static WorkflowFailure historyUnreadable(
      String instanceId,
      int executionId,
      int attempt,
      int maxAttempts,
      String error,
      String poisonedMessage) {
    return poison(
        PoisonTexts.historyUnreadable(instanceId, attempt, maxAttempts, error),
        attempt,
        maxAttempts,
        PoisonTarget.HISTORY_UNREADABLE,
        instanceId,
        executionId,
        null,
        null,
        poisonedMessage,
        null);
  }

  private static WorkflowFailure poison(
      String display,
      int attempt,
      Integer maxAttempts,
      PoisonTarget target,
      String instanceId,
      int executionId,
      String activityName,
      Long activityId,
      String poisonedMessage,
      WorkflowFailure lastAttempt) {
    return new WorkflowFailure(
        POISON,
        "poison",
        display,
        null,
        null,
        false,
        null,
        attempt,
        maxAttempts,
        target,
        instanceId,
        executionId,
        activityName,
        activityId,
        poisonedMessage,
        List.of(),
        lastAttempt,
        null,
        display);
  }

  /**
   * The failure stored as {@code json} (the form of history events and the instance row).
   *
   * @throws IllegalArgumentException when it is not JSON of a failure
   */
  public static WorkflowFailure fromJson(String json) {
    try {
      return FailureCodec.read(Json.defaultMapper().readTree(json));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("failure: not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The failure a JSON tree holds (the form of history events, the instance row and the HTTP API).
   *
   * @throws IllegalArgumentException when it is not a failure object
   */
  public static WorkflowFailure fromJson(com.fasterxml.jackson.databind.JsonNode json) {
    return FailureCodec.read(json);
  }

  /** This failure as the JSON that history events and the instance row store. */
  public String toJson() {
    return FailureCodec.write(this).toString();
  }

  /** This failure as a JSON tree, field by field (null fields left out). */
  public com.fasterxml.jackson.databind.node.ObjectNode toJsonTree() {
    return FailureCodec.write(this);
  }

  /** This failure with {@code retryable} set as given. */
  public WorkflowFailure withRetryable(boolean value) {
    return copy(value, via);
  }

  /** This failure as it travels up through {@code instanceId} (a parent records it unchanged). */
  public WorkflowFailure passedThrough(String instanceId) {
    List<String> path = new ArrayList<>(via);
    path.add(instanceId);
    return copy(retryable, path);
  }

  private WorkflowFailure copy(boolean retryableValue, List<String> viaValue) {
    return new WorkflowFailure(
        reason,
        category,
        message,
        type,
        stackTrace,
        retryableValue,
        retryAfterMs,
        attempt,
        maxAttempts,
        target,
        instanceId,
        executionId,
        activityName,
        activityId,
        poisonedMessage,
        viaValue,
        lastAttempt,
        cause,
        display);
  }
}
