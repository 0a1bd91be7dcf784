package io.redrive.workflow.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.workflow.OrchestrationContext.ParentRef;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event.ActivityCompleted;
import io.redrive.workflow.history.Event.ActivityFailed;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.Event.ChildCompleted;
import io.redrive.workflow.history.Event.ChildFailed;
import io.redrive.workflow.history.Event.ChildScheduled;
import io.redrive.workflow.history.Event.ContinuedAsNew;
import io.redrive.workflow.history.Event.EventRaised;
import io.redrive.workflow.history.Event.OrchestrationCompleted;
import io.redrive.workflow.history.Event.OrchestrationFailed;
import io.redrive.workflow.history.Event.OrchestrationRetried;
import io.redrive.workflow.history.Event.OrchestrationStarted;
import io.redrive.workflow.history.Event.OrchestrationTerminated;
import io.redrive.workflow.history.Event.PatchApplied;
import io.redrive.workflow.history.Event.RaisedEvent;
import io.redrive.workflow.history.Event.TimerCreated;
import io.redrive.workflow.history.Event.TimerFired;
import io.redrive.workflow.history.Event.TurnStarted;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * History events as stored: the kind, the {@code seq} and {@code name} columns and the JSON data.
 * The only place that knows the stored key names, so a mistyped key cannot silently become a
 * default elsewhere. Reading is lenient where histories written by earlier builds lack a field (the
 * default is the one those builds meant); writing gives what {@link #decode} reads back equal.
 * Stateless and thread-safe.
 */
public final class EventCodec {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private EventCodec() {}

  /** An event as its stored columns. */
  public record Stored(String kind, Long seq, String name, ObjectNode data) {}

  private static final java.util.Map<Class<?>, String> KINDS =
      java.util.Map.ofEntries(
          java.util.Map.entry(OrchestrationStarted.class, EventKind.ORCHESTRATION_STARTED),
          java.util.Map.entry(TurnStarted.class, EventKind.TURN_STARTED),
          java.util.Map.entry(ActivityScheduled.class, EventKind.ACTIVITY_SCHEDULED),
          java.util.Map.entry(ActivityCompleted.class, EventKind.ACTIVITY_COMPLETED),
          java.util.Map.entry(ActivityFailed.class, EventKind.ACTIVITY_FAILED),
          java.util.Map.entry(TimerCreated.class, EventKind.TIMER_CREATED),
          java.util.Map.entry(TimerFired.class, EventKind.TIMER_FIRED),
          java.util.Map.entry(EventRaised.class, EventKind.EVENT_RAISED),
          java.util.Map.entry(ChildScheduled.class, EventKind.CHILD_SCHEDULED),
          java.util.Map.entry(ChildCompleted.class, EventKind.CHILD_COMPLETED),
          java.util.Map.entry(ChildFailed.class, EventKind.CHILD_FAILED),
          java.util.Map.entry(PatchApplied.class, EventKind.PATCH_APPLIED),
          java.util.Map.entry(OrchestrationCompleted.class, EventKind.ORCHESTRATION_COMPLETED),
          java.util.Map.entry(OrchestrationFailed.class, EventKind.ORCHESTRATION_FAILED),
          java.util.Map.entry(OrchestrationTerminated.class, EventKind.ORCHESTRATION_TERMINATED),
          java.util.Map.entry(ContinuedAsNew.class, EventKind.CONTINUED_AS_NEW),
          java.util.Map.entry(OrchestrationRetried.class, EventKind.ORCHESTRATION_RETRIED));

  /** The stored kind of {@code event}. */
  static String kindOf(Event event) {
    return KINDS.get(event.getClass());
  }

  /** {@code event} as its stored columns. */
  public static Stored encode(Event event) {
    ObjectNode d = JSON.objectNode();
    if (event instanceof OrchestrationStarted e) {
      putIfSet(d, "instanceId", e.instanceId());
      d.put("name", e.name());
      d.put("version", e.version());
      d.set("input", orNull(e.input()));
      if (e.parent() != null) {
        ObjectNode p = d.putObject("parent");
        p.put("instanceId", e.parent().instanceId());
        p.put("executionId", e.parent().executionId());
        p.put("seq", e.parent().seq());
      }
      d.put("firstSeq", e.firstSeq());
      ArrayNode carried = d.putArray("carriedEvents");
      e.carriedEvents().forEach(c -> carried.add(raised(c)));
      return stored(e, null, e.name(), d);
    }
    if (event instanceof TurnStarted e) {
      d.put("turn", e.turn());
      d.put("node", e.node());
      putIfSet(d, "build", e.build());
      d.put("attempt", e.attempt());
      return stored(e, null, null, d);
    }
    if (event instanceof ActivityScheduled e) {
      d.put("seq", e.seq());
      d.put("name", e.name());
      d.set("input", e.input());
      putIfSet(d, "queue", e.queue());
      d.put("retryNumber", e.retryNumber());
      if (e.timeoutMs() != null) {
        d.put("timeoutMs", e.timeoutMs());
      }
      if (e.local()) {
        d.put("local", true); // written only when set: queued commands keep their stored bytes
      }
      if (e.priority() != null) {
        d.put("priority", e.priority()); // only when set, as "local"
      }
      putIfSet(d, "limitKey", e.limitKey());
      return stored(e, e.seq(), e.name(), d);
    }
    if (event instanceof ActivityCompleted e) {
      d.put("seq", e.seq());
      d.put("retryNumber", e.retryNumber());
      d.put("messageId", e.messageId());
      d.set("result", orNull(e.result()));
      d.set("attempts", e.attempts());
      return stored(e, e.seq(), e.name(), d);
    }
    if (event instanceof ActivityFailed e) {
      d.put("seq", e.seq());
      d.put("retryNumber", e.retryNumber());
      d.put("messageId", e.messageId());
      d.set("failure", e.failure().toJsonTree());
      d.set("attempts", e.attempts());
      return stored(e, e.seq(), e.name(), d);
    }
    if (event instanceof TimerCreated e) {
      d.put("seq", e.seq());
      d.put("fireAt", e.fireAt().toString());
      d.put("purpose", e.purpose().name());
      putIfSet(d, "event", e.event());
      if (e.retryNumber() != null) {
        d.put("retryNumber", e.retryNumber());
      }
      putIfSet(d, "activity", e.activity());
      return stored(e, e.seq(), e.purpose().name(), d);
    }
    if (event instanceof TimerFired e) {
      d.put("seq", e.seq());
      d.put("purpose", e.purpose().name());
      if (e.retryNumber() != null) {
        d.put("retryNumber", e.retryNumber());
      }
      return stored(e, e.seq(), e.purpose().name(), d);
    }
    if (event instanceof EventRaised e) {
      d.put("name", e.name());
      d.set("payload", orNull(e.payload()));
      return stored(e, null, e.name(), d);
    }
    if (event instanceof ChildScheduled e) {
      d.put("seq", e.seq());
      d.put("name", e.name());
      putIfSet(d, "version", e.version());
      d.put("instanceId", e.instanceId());
      d.put("explicitId", e.explicitId());
      d.set("input", e.input());
      if (e.retryNumber() > 0) {
        d.put("retryNumber", e.retryNumber());
      }
      return stored(e, e.seq(), e.name(), d);
    }
    if (event instanceof ChildCompleted e) {
      d.put("seq", e.seq());
      if (e.retryNumber() > 0) {
        d.put("retryNumber", e.retryNumber());
      }
      d.set("result", orNull(e.result()));
      return stored(e, e.seq(), e.name(), d);
    }
    if (event instanceof ChildFailed e) {
      d.put("seq", e.seq());
      if (e.retryNumber() > 0) {
        d.put("retryNumber", e.retryNumber());
      }
      d.set("failure", e.failure().toJsonTree());
      return stored(e, e.seq(), e.name(), d);
    }
    if (event instanceof PatchApplied e) {
      d.put("seq", e.seq());
      d.put("changeId", e.changeId());
      return stored(e, e.seq(), e.changeId(), d);
    }
    if (event instanceof OrchestrationCompleted e) {
      d.set("output", orNull(e.output()));
      return stored(e, null, null, d);
    }
    if (event instanceof OrchestrationFailed e) {
      d.set("failure", e.failure().toJsonTree());
      return stored(e, null, null, d);
    }
    if (event instanceof OrchestrationTerminated e) {
      d.put("reason", e.reason());
      return stored(e, null, null, d);
    }
    if (event instanceof ContinuedAsNew e) {
      d.set("input", orNull(e.input()));
      putIfSet(d, "version", e.version());
      return stored(e, null, null, d);
    }
    if (event instanceof OrchestrationRetried e) {
      d.put("by", e.by());
      putIfSet(d, "note", e.note());
      ArrayNode voided = d.putArray("voided");
      e.voided().forEach(voided::add);
      return stored(e, null, null, d);
    }
    throw new IllegalArgumentException("unknown event " + event);
  }

  /**
   * The event stored as {@code kind}, {@code seq}, {@code name} and {@code data}.
   *
   * @throws IllegalArgumentException when the kind is unknown or a field the engine needs is
   *     missing or of the wrong type
   */
  public static Event decode(String kind, Long seq, String name, JsonNode d) {
    if (d == null || !d.isObject()) {
      throw new IllegalArgumentException("data is not a JSON object");
    }
    return switch (kind) {
      case EventKind.ORCHESTRATION_STARTED -> {
        List<RaisedEvent> carried = new ArrayList<>();
        d.path("carriedEvents").forEach(c -> carried.add(raised(c)));
        JsonNode p = d.get("parent");
        yield new OrchestrationStarted(
            text(d, "instanceId"),
            text(d, "name"),
            text(d, "version"),
            d.get("input"),
            p == null || p.isNull()
                ? null
                : new ParentRef(
                    p.path("instanceId").asText(),
                    p.path("executionId").asInt(),
                    p.path("seq").asLong()),
            d.path("firstSeq").asLong(1),
            carried);
      }
      case EventKind.TURN_STARTED ->
          new TurnStarted(
              d.path("turn").asInt(), text(d, "node"), text(d, "build"), d.path("attempt").asInt());
      case EventKind.ACTIVITY_SCHEDULED ->
          new ActivityScheduled(
              seq(seq, d),
              name != null ? name : text(d, "name"),
              d.get("input"),
              text(d, "queue"),
              d.path("retryNumber").asInt(0),
              d.hasNonNull("timeoutMs") ? d.get("timeoutMs").asLong() : null,
              d.path("local").asBoolean(false),
              d.hasNonNull("priority") ? d.get("priority").asInt() : null,
              text(d, "limitKey"));
      case EventKind.ACTIVITY_COMPLETED ->
          new ActivityCompleted(
              seq(seq, d),
              name,
              d.path("retryNumber").asInt(0),
              text(d, "messageId"),
              d.get("result"),
              d.get("attempts"));
      case EventKind.ACTIVITY_FAILED ->
          new ActivityFailed(
              seq(seq, d),
              name,
              d.path("retryNumber").asInt(0),
              text(d, "messageId"),
              WorkflowFailure.fromJson(d.get("failure")),
              d.get("attempts"));
      case EventKind.TIMER_CREATED ->
          new TimerCreated(
              seq(seq, d),
              Instant.parse(required(d, "fireAt")),
              TimerPurpose.parse(text(d, "purpose")),
              text(d, "event"),
              d.hasNonNull("retryNumber") ? d.get("retryNumber").asInt() : null,
              text(d, "activity"));
      case EventKind.TIMER_FIRED ->
          new TimerFired(
              seq(seq, d),
              TimerPurpose.parse(text(d, "purpose")),
              d.hasNonNull("retryNumber") ? d.get("retryNumber").asInt() : null);
      case EventKind.EVENT_RAISED ->
          new EventRaised(name != null ? name : text(d, "name"), d.get("payload"));
      case EventKind.CHILD_SCHEDULED ->
          new ChildScheduled(
              seq(seq, d),
              name != null ? name : text(d, "name"),
              text(d, "version"),
              required(d, "instanceId"),
              d.path("explicitId").asBoolean(false),
              d.get("input"),
              d.path("retryNumber").asInt(0));
      case EventKind.CHILD_COMPLETED ->
          new ChildCompleted(seq(seq, d), name, d.path("retryNumber").asInt(0), d.get("result"));
      case EventKind.CHILD_FAILED ->
          new ChildFailed(
              seq(seq, d),
              name,
              d.path("retryNumber").asInt(0),
              WorkflowFailure.fromJson(d.get("failure")));
      case EventKind.PATCH_APPLIED -> new PatchApplied(seq(seq, d), required(d, "changeId"));
      case EventKind.ORCHESTRATION_COMPLETED -> new OrchestrationCompleted(d.get("output"));
      case EventKind.ORCHESTRATION_FAILED ->
          new OrchestrationFailed(WorkflowFailure.fromJson(d.get("failure")));
      case EventKind.ORCHESTRATION_TERMINATED -> new OrchestrationTerminated(text(d, "reason"));
      case EventKind.CONTINUED_AS_NEW -> new ContinuedAsNew(d.get("input"), text(d, "version"));
      case EventKind.ORCHESTRATION_RETRIED -> {
        List<Integer> voided = new ArrayList<>();
        d.path("voided").forEach(v -> voided.add(v.asInt()));
        yield new OrchestrationRetried(text(d, "by"), text(d, "note"), voided);
      }
      default -> throw new IllegalArgumentException("unknown kind \"" + kind + "\"");
    };
  }

  /** A buffered event as a continue-as-new carries it. */
  static ObjectNode raised(RaisedEvent e) {
    ObjectNode n = JSON.objectNode();
    n.put("name", e.name());
    n.set("payload", orNull(e.payload()));
    return n;
  }

  static RaisedEvent raised(JsonNode n) {
    return new RaisedEvent(n.path("name").asText(), n.get("payload"));
  }

  private static Stored stored(Event e, Long seq, String name, ObjectNode data) {
    return new Stored(kindOf(e), seq, name, data);
  }

  private static long seq(Long column, JsonNode d) {
    if (column != null) {
      return column;
    }
    if (!d.path("seq").canConvertToLong()) {
      throw new IllegalArgumentException("command number (seq) is missing");
    }
    return d.get("seq").asLong();
  }

  private static String required(JsonNode d, String field) {
    String value = text(d, field);
    if (value == null) {
      throw new IllegalArgumentException("field \"" + field + "\" is missing");
    }
    return value;
  }

  static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  static JsonNode orNull(JsonNode n) {
    return n == null ? NullNode.instance : n;
  }

  static void putIfSet(ObjectNode n, String field, String value) {
    if (value != null) {
      n.put(field, value);
    }
  }
}
