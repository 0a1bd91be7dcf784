package io.redrive.workflow;

import com.fasterxml.jackson.core.type.TypeReference;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * What orchestration code does durably (docs/workflows.md, "Java API"). Every call that schedules
 * work ({@code callActivity}, {@code createTimer}, {@code waitForEvent}, …) takes the next command
 * number and is matched against the recorded history when the turn replays, so the code must make
 * the same calls in the same order every time it runs (the determinism rules).
 *
 * <p>Only usable on the thread that runs the orchestration, during its turn: a call from another
 * thread throws {@link IllegalStateException}. Awaiting a task whose result is not in history yet
 * throws the runtime's suspension signal, an {@link Error} that code must never catch.
 */
public interface OrchestrationContext {
  /** The instance's id. */
  String instanceId();

  /** The current execution (1, then +1 for each continue-as-new). */
  int executionId();

  /** The orchestration's name. */
  String name();

  /** The version this execution runs (pinned at its start). */
  String version();

  /** The parent that started this instance as a sub-orchestration, if one did. */
  Optional<ParentRef> parent();

  /** True while the code re-runs what history already recorded. */
  boolean isReplaying();

  /** Deterministic time: the start of the turn that delivered the latest awaited result. */
  Instant now();

  /** A UUID that is the same on every replay (name-based on instance, execution and a counter). */
  UUID newUuid();

  /** A random source seeded from the instance and execution: the same sequence on every replay. */
  Random random();

  /** A logger that is silent while the code replays, so each line is written once. */
  org.slf4j.Logger logger();

  /** Schedules an activity with default options; the task completes with its result. */
  <O> Task<O> callActivity(String name, Object input, Class<O> resultType);

  /** Schedules an activity; the task completes with its result or fails catchably. */
  <O> Task<O> callActivity(
      String name, Object input, TypeReference<O> resultType, ActivityOptions options);

  /** Starts a child orchestration with default options; the task completes with its output. */
  <O> Task<O> callSubOrchestration(String name, Object input, Class<O> resultType);

  /** Starts a child orchestration; the task completes with its output or fails catchably. */
  <O> Task<O> callSubOrchestration(
      String name, Object input, TypeReference<O> resultType, SubOrchestrationOptions options);

  /** A durable timer that fires {@code delay} after {@link #now()}. */
  Task<Void> createTimer(Duration delay);

  /** A durable timer that fires at {@code fireAt} (at once, next turn, if it is past). */
  Task<Void> createTimer(Instant fireAt);

  /** The next external event of this name (buffered: one raised earlier is taken at once). */
  <T> Task<T> waitForEvent(String name, Class<T> type);

  /** As {@link #waitForEvent(String, Class)}, or empty when {@code timeout} passes first. */
  <T> Task<Optional<T>> waitForEvent(String name, Class<T> type, Duration timeout);

  /**
   * A task that completes when all of {@code tasks} have, with their results in argument order; it
   * fails with {@link AllOfFailedException} after all finished if any failed.
   */
  <T> Task<List<T>> allOf(List<Task<T>> tasks);

  /** A task that completes with whichever of {@code tasks} finished first in history. */
  Task<Task<?>> anyOf(List<? extends Task<?>> tasks);

  /** A status for operators, stored on the instance at the turn's commit (not in history). */
  void setStatus(Object status);

  /**
   * True when the code may take the new branch of change {@code changeId}: always for executions
   * that reach this point for the first time, false for histories recorded before the change.
   */
  boolean patched(String changeId);

  /** Tolerates an old history's marker of change {@code changeId}; issues nothing. */
  void deprecatePatch(String changeId);

  /**
   * Ends this execution and starts the next one with {@code input}, same name, the default version;
   * never returns (the declared result type lets it stand in a {@code return}).
   */
  <R> R continueAsNew(Object input);

  /** As {@link #continueAsNew(Object)}, running {@code version} next. */
  <R> R continueAsNew(String version, Object input);

  /** True once the history passed half of either history limit. */
  boolean isContinueAsNewSuggested();

  /** The current execution's history size. */
  HistorySize historySize();

  /** The parent of a sub-orchestration: its instance, execution and the command that started it. */
  record ParentRef(String instanceId, int executionId, long seq) {}

  /** An execution's history size: events and bytes of their data. */
  record HistorySize(int events, long bytes) {}
}
