package io.redrive.workflow;

import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.OrchestrationStarted;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.replay.Mismatch;
import io.redrive.workflow.replay.OrchestrationRun;
import io.redrive.workflow.replay.Payloads;
import io.redrive.workflow.replay.RunResult;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.helpers.NOPLogger;

/**
 * Replays one execution's recorded history against a registry's code, without a store: what the
 * replayer of fixtures and the live replay check share. Stateless.
 */
final class ExecutionReplay {
  private ExecutionReplay() {}

  /**
   * Replays the live part of an execution's history (events an operator's retry voided left out) up
   * to its frontier: its end event, or where it waits. What the code does past history is dropped;
   * nothing is written anywhere.
   *
   * @param version the version the execution runs (its instance's pinned one)
   * @throws ReplayMismatchException when the code does not fit, lacks a registration, or meets a
   *     recorded payload it no longer decodes
   * @throws IllegalArgumentException when the history does not begin with ORCHESTRATION_STARTED
   */
  static void replayToFrontier(
      WorkflowRegistry registry,
      Payloads payloads,
      int executionId,
      String version,
      List<HistoryEvent> history) {
    Split split = split(executionId, history);
    String name = split.started().name();
    run(registry, payloads, executionId, name, version, split.events(), NOPLogger.NOP_LOGGER);
  }

  /** An execution's live events before its end, and the end event (null while it runs). */
  record Split(List<HistoryEvent> events, HistoryEvent end) {
    OrchestrationStarted started() {
      return (OrchestrationStarted) events.get(0).event();
    }
  }

  static Split split(int executionId, List<HistoryEvent> all) {
    List<HistoryEvent> events = new ArrayList<>();
    HistoryEvent end = null;
    for (HistoryEvent e : HistoryEvent.withoutVoided(all)) {
      if (e.event() instanceof Event.End) {
        end = e;
        break;
      }
      events.add(e);
    }
    if (events.isEmpty() || !(events.get(0).event() instanceof OrchestrationStarted)) {
      throw new IllegalArgumentException(
          "history: execution " + executionId + " does not begin with ORCHESTRATION_STARTED");
    }
    return new Split(events, end);
  }

  /** Runs {@code name@version} against {@code events}; a bounce is thrown as a mismatch. */
  static RunResult run(
      WorkflowRegistry registry,
      Payloads payloads,
      int executionId,
      String name,
      String version,
      List<HistoryEvent> events,
      Logger logger) {
    OrchestrationStarted started = (OrchestrationStarted) events.get(0).event();
    String instanceId = instanceIdOf(started);
    String where = where(name, version, executionId, instanceId);
    OrchestrationDefinition code =
        registry
            .orchestration(name, version)
            .orElseThrow(
                () ->
                    new ReplayMismatchException(
                        ReplayMismatchException.UNREGISTERED,
                        "unregistered: execution "
                            + executionId
                            + " runs "
                            + name
                            + "@"
                            + version
                            + ", which the registry does not have",
                        executionId,
                        null,
                        null,
                        null,
                        null));
    OrchestrationRun run =
        new OrchestrationRun(
            new OrchestrationRun.Spec(
                instanceId,
                executionId,
                name,
                version,
                started.parent(),
                started.input(),
                started.firstSeq(),
                started.carriedEvents(),
                events,
                events.size(),
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                OrchestrationRun.Placement.QUEUED),
            code.code(),
            code.inputType(),
            payloads,
            logger);
    RunResult result = run.run();
    if (result instanceof RunResult.Bounced b) {
      Mismatch m = b.mismatch();
      throw new ReplayMismatchException(
          WorkflowFailure.NONDETERMINISM.equals(b.reason())
              ? ReplayMismatchException.NONDETERMINISM
              : ReplayMismatchException.UNDECODABLE,
          b.message() + " (" + where + ")",
          executionId,
          m == null ? null : m.eventId(),
          m == null ? null : m.command(),
          m == null ? null : m.expected(),
          m == null ? null : m.actual());
    }
    return result;
  }

  static String where(String name, String version, int executionId, String instanceId) {
    return name + "@" + version + " execution " + executionId + " of " + instanceId;
  }

  static String instanceIdOf(OrchestrationStarted started) {
    return started.instanceId() == null ? "replayed" : started.instanceId();
  }
}
