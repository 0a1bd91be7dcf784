package io.redrive.workflow;

import java.util.List;
import java.util.Locale;

/**
 * The display texts of poison failures (docs/workflows.md, "Attempts and poison"): the words an
 * operator reads in a failed instance, a log line and the CLI, the same everywhere.
 */
final class PoisonTexts {
  private PoisonTexts() {}

  /** {@code poison: orchestration {instance} exceeded {attempt} attempts (max {max})}. */
  static String orchestration(String instanceId, int attempt, int maxAttempts) {
    return "poison: orchestration " + instanceId + exceeded(attempt, maxAttempts);
  }

  /** {@code poison: activity {name}#{activityId} exceeded {attempt} attempts (max {max})}. */
  static String activity(String name, long activityId, int attempt, int maxAttempts) {
    return "poison: activity " + name + "#" + activityId + exceeded(attempt, maxAttempts);
  }

  /**
   * {@code poison: orchestration {instance} history deserialization failed after {attempt} attempts
   * (max {max}): {error}}.
   */
  static String historyUnreadable(String instanceId, int attempt, int maxAttempts, String error) {
    return "poison: orchestration "
        + instanceId
        + " history deserialization failed after "
        + attempt
        + " attempts (max "
        + maxAttempts
        + "): "
        + error;
  }

  /**
   * The crash-loop breaker's: {@code poison: orchestration {instance} crashed {n} nodes ({a}, {b})
   * in {attempt} attempts (max crashes {k})}.
   */
  static String crashLoop(String instanceId, List<String> nodes, int attempt, int maxCrashes) {
    return "poison: orchestration " + instanceId + crashed("nodes", nodes, attempt, maxCrashes);
  }

  /**
   * The crash-loop breaker's, for an activity message (the queue's {@code maxCrashes}): {@code
   * poison: activity {name}#{activityId} crashed {n} workers ({a}, {b}) in {attempt} attempts (max
   * crashes {k})}.
   */
  static String activityCrashLoop(
      String name, long activityId, List<String> workers, int attempt, int maxCrashes) {
    return "poison: activity "
        + name
        + "#"
        + activityId
        + crashed("workers", workers, attempt, maxCrashes);
  }

  /**
   * {@code display} followed by what the last counted try ended with, so the one line names the
   * cause: {@code ...(max 3); last attempt: UNREGISTERED_HANDLER: no handler for type b ...}. The
   * try's message is cut at its first line and loses a leading {@code reason: } it repeats; without
   * a last try the display stays as it is.
   */
  static String withLastAttempt(String display, WorkflowFailure lastAttempt) {
    if (lastAttempt == null) {
      return display;
    }
    String message = lastAttempt.message().lines().findFirst().orElse("").strip();
    String said = lastAttempt.reason().toLowerCase(Locale.ROOT) + ": ";
    if (message.startsWith(said)) {
      message = message.substring(said.length()); // "NONDETERMINISM: nondeterminism: ..." once
    }
    return display
        + "; last attempt: "
        + lastAttempt.reason()
        + (message.isEmpty() ? "" : ": " + message);
  }

  private static String crashed(String what, List<String> who, int attempt, int maxCrashes) {
    return " crashed "
        + who.size()
        + " "
        + what
        + " ("
        + String.join(", ", who)
        + ") in "
        + attempt
        + " attempts (max crashes "
        + maxCrashes
        + ")";
  }

  private static String exceeded(int attempt, int maxAttempts) {
    return " exceeded " + attempt + " attempts (max " + maxAttempts + ")";
  }
}
