package io.redrive.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.workflow.OrchestrationContext.ParentRef;
import io.redrive.workflow.replay.EventKind;
import io.redrive.workflow.replay.HistoryEvent;
import io.redrive.workflow.replay.Mismatch;
import io.redrive.workflow.replay.NewEvent;
import io.redrive.workflow.replay.OrchestrationRun;
import io.redrive.workflow.replay.Payloads;
import io.redrive.workflow.replay.RunResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLogger;

/**
 * Replays a recorded history against the code of a registry, without a store, so that a unit test
 * shows whether new code still fits the instances already running (docs/workflows.md,
 * "Versioning"). Record histories with {@link #toJson} (or the HTTP API's {@code
 * history?execution=all}) and keep them as test fixtures.
 *
 * <p>Each execution is replayed to its end: the code must issue exactly the recorded commands, and
 * end as the execution ended (completed, failed, continued as new, or still waiting). Executions
 * that ended by a system failure or termination, which code never decided, are replayed only up to
 * that point.
 */
public final class WorkflowReplayer {
  private static final ObjectMapper MAPPER = Json.defaultMapper();

  private WorkflowReplayer() {}

  /**
   * Replays every execution of {@code historyJson} (an array of events as {@link #toJson} writes).
   *
   * @throws ReplayMismatchException naming the first mismatch
   * @throws IllegalArgumentException when the JSON is not a history
   */
  public static void replay(WorkflowRegistry registry, String historyJson) {
    replay(registry, fromJson(historyJson), Json.defaultMapper());
  }

  /**
   * Checks a new build against the instances that are running now, before it is deployed
   * (docs/workflows.md, "Replay check before a deploy"): pages every RUNNING instance through
   * {@code client}, replays each one's current execution to its frontier with {@code newBuild}'s
   * code and reports the ones that would break. Equal to {@code checkLive(newBuild, client,
   * ReplayCheckOptions.running())}.
   */
  public static ReplayCheckReport checkLive(WorkflowRegistry newBuild, InstanceReader client) {
    return checkLive(newBuild, client, ReplayCheckOptions.running());
  }

  /**
   * Checks a new build against the instances {@code options} select. Only reads through {@code
   * client} ({@link InstanceReader#list} and {@link InstanceReader#history}): nothing is written,
   * no activity runs, and what the code does past an instance's history is dropped. The code runs
   * on the calling thread, one instance at a time.
   *
   * <p>Per instance: OK; NONDETERMINISM naming the event and command where the code issued
   * something else than history has; UNDECODABLE when a recorded payload no longer decodes into the
   * code's types; UNREGISTERED when {@code newBuild} lacks the {@code name@version} its next turn
   * runs (for an instance that continues as new, the target; for one not started yet, the version
   * it would pin); HISTORY_UNREADABLE; NODE_ERROR when the code throws an {@link Error}. FAILED
   * instances are checked only when their failure is a system failure, the kind an operator's retry
   * runs again.
   *
   * @throws RuntimeException what {@code client} throws (the check stops)
   */
  public static ReplayCheckReport checkLive(
      WorkflowRegistry newBuild, InstanceReader client, ReplayCheckOptions options) {
    Objects.requireNonNull(newBuild, "newBuild");
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(options, "options");
    return new LiveReplayCheck(newBuild, client, options).run();
  }

  /**
   * As {@link #replay(WorkflowRegistry, String)}, on events read through a client ({@link
   * WorkflowClient#history}).
   */
  public static void replay(WorkflowRegistry registry, List<WorkflowEvent> history) {
    replay(registry, history, Json.defaultMapper());
  }

  /** As {@link #replay(WorkflowRegistry, List)}, decoding payloads with {@code mapper}. */
  public static void replay(
      WorkflowRegistry registry, List<WorkflowEvent> history, ObjectMapper mapper) {
    Payloads payloads = new Payloads(mapper, Integer.MAX_VALUE);
    Map<Integer, List<HistoryEvent>> executions = new TreeMap<>();
    for (WorkflowEvent event : history) {
      executions
          .computeIfAbsent(event.executionId(), k -> new ArrayList<>())
          .add(HistoryEvent.parse(StoreRows.row(event), mapper));
    }
    for (Map.Entry<Integer, List<HistoryEvent>> e : executions.entrySet()) {
      replayExecution(registry, payloads, e.getKey(), e.getValue());
    }
  }

  private static void replayExecution(
      WorkflowRegistry registry, Payloads payloads, int executionId, List<HistoryEvent> all) {
    Split split = split(executionId, all);
    HistoryEvent started = split.events().get(0);
    String name = started.text("name");
    String version = started.text("version");
    String instanceId = instanceIdOf(started);
    String where = where(name, version, executionId, instanceId);
    RunResult result =
        run(
            registry,
            payloads,
            executionId,
            name,
            version,
            split.events(),
            LoggerFactory.getLogger("io.redrive.workflow.replayer"));
    if (!result.events().isEmpty()) {
      NewEvent first = result.events().get(0);
      String actual = first.kind() + " " + first.name();
      throw new ReplayMismatchException(
          ReplayMismatchException.NONDETERMINISM,
          "nondeterminism: "
              + instanceId
              + " execution "
              + executionId
              + " command #"
              + first.seq()
              + ": history has nothing, code issued "
              + actual
              + " ("
              + where
              + ")",
          executionId,
          null,
          first.seq(),
          "nothing",
          actual);
    }
    String expected = expectedEnd(split.end());
    if (expected == null) {
      return;
    }
    String actual = endOf(result);
    if (!expected.equals(actual)) {
      throw new ReplayMismatchException(
          ReplayMismatchException.NONDETERMINISM,
          "nondeterminism: "
              + instanceId
              + " execution "
              + executionId
              + ": history ended "
              + expected
              + ", code "
              + actual
              + " ("
              + where
              + ")",
          executionId,
          split.end() == null ? null : split.end().eventId(),
          null,
          expected,
          actual);
    }
  }

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
    String name = split.events().get(0).text("name");
    run(registry, payloads, executionId, name, version, split.events(), NOPLogger.NOP_LOGGER);
  }

  /** An execution's live events before its end, and the end event (null while it runs). */
  private record Split(List<HistoryEvent> events, HistoryEvent end) {}

  private static Split split(int executionId, List<HistoryEvent> all) {
    List<HistoryEvent> events = new ArrayList<>();
    HistoryEvent end = null;
    for (HistoryEvent e : HistoryEvent.withoutVoided(all)) {
      if (EventKind.TERMINAL.contains(e.kind())) {
        end = e;
        break;
      }
      events.add(e);
    }
    if (events.isEmpty() || !EventKind.ORCHESTRATION_STARTED.equals(events.get(0).kind())) {
      throw new IllegalArgumentException(
          "history: execution " + executionId + " does not begin with ORCHESTRATION_STARTED");
    }
    return new Split(events, end);
  }

  /** Runs {@code name@version} against {@code events}; a bounce is thrown as a mismatch. */
  private static RunResult run(
      WorkflowRegistry registry,
      Payloads payloads,
      int executionId,
      String name,
      String version,
      List<HistoryEvent> events,
      Logger logger) {
    HistoryEvent started = events.get(0);
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
    List<JsonNode> carried = new ArrayList<>();
    started.data().path("carriedEvents").forEach(carried::add);
    JsonNode parent = started.data().get("parent");
    OrchestrationRun run =
        new OrchestrationRun(
            new OrchestrationRun.Spec(
                instanceId,
                executionId,
                name,
                version,
                parent == null
                    ? null
                    : new ParentRef(
                        parent.path("instanceId").asText(),
                        parent.path("executionId").asInt(),
                        parent.path("seq").asLong()),
                started.data().get("input"),
                started.data().path("firstSeq").asLong(1),
                carried,
                events,
                events.size(),
                Integer.MAX_VALUE,
                Long.MAX_VALUE),
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

  private static String where(String name, String version, int executionId, String instanceId) {
    return name + "@" + version + " execution " + executionId + " of " + instanceId;
  }

  /** What the code must do at the end, or null when code did not decide the end. */
  private static String expectedEnd(HistoryEvent end) {
    if (end == null) {
      return "waiting";
    }
    return switch (end.kind()) {
      case EventKind.ORCHESTRATION_COMPLETED -> "completed";
      case EventKind.CONTINUED_AS_NEW -> "continued as new";
      case EventKind.ORCHESTRATION_FAILED ->
          WorkflowFailure.ORCHESTRATION_EXCEPTION.equals(
                  end.data().path("failure").path("reason").asText())
              ? "failed"
              : null;
      default -> null;
    };
  }

  private static String endOf(RunResult r) {
    if (r instanceof RunResult.Completed) {
      return "completed";
    }
    if (r instanceof RunResult.ContinuedAsNew) {
      return "continued as new";
    }
    if (r instanceof RunResult.Failed) {
      return "failed";
    }
    return "waiting";
  }

  private static String instanceIdOf(HistoryEvent started) {
    JsonNode id = started.data().get("instanceId");
    return id == null ? "replayed" : id.asText();
  }

  /**
   * A history as JSON: an array of {@code {"eventId","execution","kind","turn","at","seq","name",
   * "data"}} with {@code data} as a JSON value, oldest first.
   */
  public static String toJson(List<WorkflowEvent> history) {
    ArrayNode a = MAPPER.createArrayNode();
    for (WorkflowEvent r : history) {
      ObjectNode n = a.addObject();
      n.put("eventId", r.eventId());
      n.put("execution", r.executionId());
      n.put("kind", r.kind());
      n.put("turn", r.turn());
      n.put("at", r.at().toString());
      if (r.seq() != null) {
        n.put("seq", r.seq());
      }
      if (r.name() != null) {
        n.put("name", r.name());
      }
      try {
        n.set("data", MAPPER.readTree(r.data()));
      } catch (JsonProcessingException e) {
        n.put("data", r.data());
      }
    }
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(a);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The events of a history written by {@link #toJson}.
   *
   * @throws IllegalArgumentException when it is not such an array
   */
  public static List<WorkflowEvent> fromJson(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("history: not JSON (" + e.getOriginalMessage() + ")", e);
    }
    if (root == null || !root.isArray()) {
      throw new IllegalArgumentException("history: must be a JSON array of events");
    }
    List<WorkflowEvent> events = new ArrayList<>();
    for (JsonNode n : root) {
      if (!n.hasNonNull("kind") || !n.hasNonNull("eventId") || !n.has("data")) {
        throw new IllegalArgumentException(
            "history: every event needs eventId, kind and data, got " + n);
      }
      events.add(
          new WorkflowEvent(
              n.get("eventId").asInt(),
              n.path("execution").asInt(1),
              n.get("kind").asText(),
              n.hasNonNull("seq") ? n.get("seq").asLong() : null,
              n.hasNonNull("name") ? n.get("name").asText() : null,
              n.get("data").toString(),
              n.path("turn").asInt(0),
              n.hasNonNull("at") ? Instant.parse(n.get("at").asText()) : Instant.EPOCH));
    }
    return events;
  }
}
