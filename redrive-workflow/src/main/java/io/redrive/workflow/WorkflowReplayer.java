package io.redrive.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.store.HistoryRow;
import io.redrive.workflow.OrchestrationContext.ParentRef;
import io.redrive.workflow.replay.EventKind;
import io.redrive.workflow.replay.HistoryEvent;
import io.redrive.workflow.replay.NewEvent;
import io.redrive.workflow.replay.OrchestrationRun;
import io.redrive.workflow.replay.Payloads;
import io.redrive.workflow.replay.RunResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

  /** As {@link #replay(WorkflowRegistry, String)}, on rows read from a store. */
  public static void replay(WorkflowRegistry registry, List<HistoryRow> history) {
    replay(registry, history, Json.defaultMapper());
  }

  /** As {@link #replay(WorkflowRegistry, List)}, decoding payloads with {@code mapper}. */
  public static void replay(
      WorkflowRegistry registry, List<HistoryRow> history, ObjectMapper mapper) {
    Payloads payloads = new Payloads(mapper, Integer.MAX_VALUE);
    Map<Integer, List<HistoryEvent>> executions = new TreeMap<>();
    for (HistoryRow row : history) {
      executions
          .computeIfAbsent(row.executionId(), k -> new ArrayList<>())
          .add(HistoryEvent.parse(row, mapper));
    }
    for (Map.Entry<Integer, List<HistoryEvent>> e : executions.entrySet()) {
      replayExecution(registry, payloads, e.getKey(), e.getValue());
    }
  }

  private static void replayExecution(
      WorkflowRegistry registry, Payloads payloads, int executionId, List<HistoryEvent> all) {
    List<HistoryEvent> events = new ArrayList<>();
    HistoryEvent end = null;
    for (HistoryEvent e : all) {
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
    HistoryEvent started = events.get(0);
    String name = started.text("name");
    String version = started.text("version");
    OrchestrationDefinition code =
        registry
            .orchestration(name, version)
            .orElseThrow(
                () ->
                    new ReplayMismatchException(
                        "unregistered: execution "
                            + executionId
                            + " runs "
                            + name
                            + "@"
                            + version
                            + ", which the registry does not have"));
    String instanceId = instanceIdOf(started);
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
            LoggerFactory.getLogger("io.redrive.workflow.replayer"));
    RunResult result = run.run();
    String where = name + "@" + version + " execution " + executionId + " of " + instanceId;
    if (result instanceof RunResult.Bounced b) {
      throw new ReplayMismatchException(b.message() + " (" + where + ")");
    }
    if (!result.events().isEmpty()) {
      NewEvent first = result.events().get(0);
      throw new ReplayMismatchException(
          "nondeterminism: "
              + instanceId
              + " execution "
              + executionId
              + " command #"
              + first.seq()
              + ": history has nothing, code issued "
              + first.kind()
              + " "
              + first.name()
              + " ("
              + where
              + ")");
    }
    String expected = expectedEnd(end);
    if (expected == null) {
      return;
    }
    String actual = endOf(result);
    if (!expected.equals(actual)) {
      throw new ReplayMismatchException(
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
              + ")");
    }
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
  public static String toJson(List<HistoryRow> history) {
    ArrayNode a = MAPPER.createArrayNode();
    for (HistoryRow r : history) {
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
   * The rows of a history written by {@link #toJson}.
   *
   * @throws IllegalArgumentException when it is not such an array
   */
  public static List<HistoryRow> fromJson(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("history: not JSON (" + e.getOriginalMessage() + ")", e);
    }
    if (root == null || !root.isArray()) {
      throw new IllegalArgumentException("history: must be a JSON array of events");
    }
    List<HistoryRow> rows = new ArrayList<>();
    for (JsonNode n : root) {
      if (!n.hasNonNull("kind") || !n.hasNonNull("eventId") || !n.has("data")) {
        throw new IllegalArgumentException(
            "history: every event needs eventId, kind and data, got " + n);
      }
      rows.add(
          new HistoryRow(
              n.path("execution").asInt(1),
              n.get("eventId").asInt(),
              n.get("kind").asText(),
              n.hasNonNull("seq") ? n.get("seq").asLong() : null,
              n.hasNonNull("name") ? n.get("name").asText() : null,
              n.get("data").toString(),
              n.path("turn").asInt(0),
              n.hasNonNull("at") ? Instant.parse(n.get("at").asText()) : Instant.EPOCH));
    }
    return rows;
  }
}
