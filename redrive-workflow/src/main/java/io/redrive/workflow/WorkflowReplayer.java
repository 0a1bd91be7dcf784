package io.redrive.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.replay.Payloads;
import io.redrive.workflow.replay.RunResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.slf4j.LoggerFactory;

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
    ExecutionReplay.Split split = ExecutionReplay.split(executionId, all);
    Event.OrchestrationStarted started = split.started();
    String name = started.name();
    String version = started.version();
    String instanceId = ExecutionReplay.instanceIdOf(started);
    String where = ExecutionReplay.where(name, version, executionId, instanceId);
    RunResult result =
        ExecutionReplay.run(
            registry,
            payloads,
            executionId,
            name,
            version,
            split.events(),
            LoggerFactory.getLogger("io.redrive.workflow.replayer"));
    if (!result.events().isEmpty()) {
      EventCodec.Stored first = EventCodec.encode(result.events().get(0));
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

  /** What the code must do at the end, or null when code did not decide the end. */
  private static String expectedEnd(HistoryEvent end) {
    if (end == null) {
      return "waiting";
    }
    Event e = end.event();
    if (e instanceof Event.OrchestrationCompleted) {
      return "completed";
    }
    if (e instanceof Event.ContinuedAsNew) {
      return "continued as new";
    }
    if (e instanceof Event.OrchestrationFailed f) {
      return WorkflowFailure.ORCHESTRATION_EXCEPTION.equals(f.failure().reason()) ? "failed" : null;
    }
    return null;
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
