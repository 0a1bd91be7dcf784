package io.redrive.workflow;

import io.redrive.error.RedriveException;

/**
 * Thrown by {@link WorkflowReplayer} when code does not fit a recorded history: the message names
 * the execution, the command number and what history has against what the code did. Its {@link
 * #code()} says what kind of misfit it is: {@code NONDETERMINISM} (the code issued other commands
 * than history has), {@code UNDECODABLE} (a recorded payload no longer decodes into the code's
 * types) or {@code UNREGISTERED} (the registry lacks the execution's {@code name@version}).
 */
public final class ReplayMismatchException extends RedriveException {
  /** The code of a replay whose commands differ from history's. */
  public static final String NONDETERMINISM = "NONDETERMINISM";

  /** The code of a replay that met a recorded payload the code's types no longer read. */
  public static final String UNDECODABLE = "UNDECODABLE";

  /** The code of a history whose {@code name@version} the registry lacks. */
  public static final String UNREGISTERED = "UNREGISTERED";

  private static final long serialVersionUID = 1L;

  private final Integer executionId;
  private final Integer eventId;
  private final Long command;
  private final String expected;
  private final String actual;

  /** A NONDETERMINISM mismatch known only by its message. */
  public ReplayMismatchException(String message) {
    this(NONDETERMINISM, message, null, null, null, null, null);
  }

  ReplayMismatchException(
      String code,
      String message,
      Integer executionId,
      Integer eventId,
      Long command,
      String expected,
      String actual) {
    super(code, message);
    this.executionId = executionId;
    this.eventId = eventId;
    this.command = command;
    this.expected = expected;
    this.actual = actual;
  }

  /** The execution whose replay failed, or null when not known. */
  public Integer executionId() {
    return executionId;
  }

  /**
   * The history event that did not fit (the recorded command, or a completion), or null when the
   * misfit is not at one event (an unregistered version, an undecodable payload).
   */
  public Integer eventId() {
    return eventId;
  }

  /** The command number where the code and history parted, or null. */
  public Long command() {
    return command;
  }

  /** What history has at {@link #command()}, e.g. {@code ACTIVITY_SCHEDULED charge}, or null. */
  public String expected() {
    return expected;
  }

  /**
   * What the code did instead, e.g. {@code ACTIVITY_SCHEDULED refund} or {@code nothing (it
   * completed)}, or null.
   */
  public String actual() {
    return actual;
  }
}
