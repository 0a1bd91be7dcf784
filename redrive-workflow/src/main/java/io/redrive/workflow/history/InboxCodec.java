package io.redrive.workflow.history;

import static io.redrive.workflow.history.EventCodec.orNull;
import static io.redrive.workflow.history.EventCodec.putIfSet;
import static io.redrive.workflow.history.EventCodec.text;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.failure.FailureRecord;
import io.redrive.store.workflow.ActivityResult.Outcome;
import io.redrive.store.workflow.InboxRow;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event.RaisedEvent;
import io.redrive.workflow.history.InboxMessage.ActivityFailure;
import io.redrive.workflow.history.InboxMessage.ActivityResult;
import io.redrive.workflow.history.InboxMessage.Checkpoint;
import io.redrive.workflow.history.InboxMessage.ChildResult;
import io.redrive.workflow.history.InboxMessage.Continue;
import io.redrive.workflow.history.InboxMessage.EventRaised;
import io.redrive.workflow.history.InboxMessage.LocalCrash;
import io.redrive.workflow.history.InboxMessage.Start;
import io.redrive.workflow.history.InboxMessage.Terminate;
import io.redrive.workflow.history.InboxMessage.TimerFired;
import io.redrive.workflow.history.InboxMessage.Unknown;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Inbox rows as stored: the kind, the {@code ref_seq} and {@code name} columns and the data. The
 * only place in the workflow module that knows the inbox's key names; the store writes START,
 * EVENT_RAISED, TERMINATE and ACTIVITY_RESULT rows itself, in the same shape. Stateless and
 * thread-safe.
 */
public final class InboxCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private InboxCodec() {}

  /** A message as its stored columns. */
  public record Stored(String kind, Long refSeq, String name, String data) {}

  /**
   * A row of a poisoned batch, as an operator's retry puts it back.
   *
   * @param executionId the execution it was for, or null for the current one
   */
  public record PoisonedRow(
      Integer executionId, String kind, Long refSeq, String name, String data) {}

  /**
   * What the queue's crash-loop breaker recorded in a poisoned activity message.
   *
   * @param workers the workers that vanished running it, oldest first
   * @param maxCrashes the queue's limit
   */
  public record CrashLoop(List<String> workers, int maxCrashes) {}

  /**
   * The message a row brings; {@link InboxMessage.Unreadable} when its data is not what its kind
   * needs.
   */
  public static InboxMessage decode(InboxRow row) {
    try {
      return read(row);
    } catch (RuntimeException e) {
      return new InboxMessage.Unreadable(row.seq(), row.kind(), e.getMessage());
    }
  }

  private static InboxMessage read(InboxRow row) {
    return switch (row.kind()) {
      case "START" -> new Start(parse(row.data()));
      case "CONTINUE" -> {
        JsonNode d = parse(row.data());
        List<RaisedEvent> carried = new ArrayList<>();
        d.path("carriedEvents").forEach(c -> carried.add(EventCodec.raised(c)));
        yield new Continue(
            row.name(), d.get("input"), text(d, "version"), carried, d.path("firstSeq").asLong(1));
      }
      case "ACTIVITY_RESULT" -> activityResult(row);
      case "TIMER_FIRED" -> {
        JsonNode d = parse(row.data());
        yield new TimerFired(
            refSeq(row),
            row.executionId(),
            TimerPurpose.parse(text(d, "purpose")),
            d.hasNonNull("retryNumber") ? d.get("retryNumber").asInt() : null);
      }
      case "CHILD_RESULT" -> {
        JsonNode d = parse(row.data());
        String outcome = text(d, "outcome");
        yield new ChildResult(
            refSeq(row),
            row.executionId(),
            row.name(),
            outcome,
            d.has("result") ? d.get("result") : NullNode.instance,
            "COMPLETED".equals(outcome) ? null : WorkflowFailure.fromJson(d.get("failure")));
      }
      case "EVENT_RAISED" -> new EventRaised(row.name(), parse(row.data()));
      case "TERMINATE" -> new Terminate(text(parse(row.data()), "reason"));
      case "CHECKPOINT" -> checkpoint(row.data());
      default -> new Unknown(row.kind());
    };
  }

  /**
   * The rows the runtime writes (timers, a continue-as-new, a child's result to its parent, a
   * parent's termination to its children).
   *
   * @throws IllegalArgumentException for a kind only the store writes
   */
  public static Stored encode(InboxMessage message) {
    ObjectNode d = MAPPER.createObjectNode();
    if (message instanceof Continue c) {
      d.set("input", orNull(c.input()));
      putIfSet(d, "version", c.version());
      ArrayNode carried = d.putArray("carriedEvents");
      c.carriedEvents().forEach(e -> carried.add(EventCodec.raised(e)));
      d.put("firstSeq", c.firstSeq());
      return new Stored("CONTINUE", null, c.name(), d.toString());
    }
    if (message instanceof TimerFired t) {
      d.put("seq", t.seq());
      d.put("purpose", t.purpose().name());
      if (t.retryNumber() != null) {
        d.put("retryNumber", t.retryNumber());
      }
      return new Stored("TIMER_FIRED", t.seq(), t.purpose().name(), d.toString());
    }
    if (message instanceof ChildResult r) {
      d.put("outcome", r.outcome());
      if (r.failure() == null) {
        d.set("result", orNull(r.result()));
      } else {
        d.set("failure", r.failure().toJsonTree());
      }
      return new Stored("CHILD_RESULT", r.seq(), r.name(), d.toString());
    }
    if (message instanceof Terminate t) {
      d.put("reason", t.reason());
      return new Stored("TERMINATE", null, null, d.toString());
    }
    if (message instanceof Checkpoint c) {
      if (c.crashes().isEmpty()) {
        return new Stored("CHECKPOINT", null, null, null);
      }
      ArrayNode crashes = d.putArray("crashes");
      for (LocalCrash x : c.crashes()) {
        ObjectNode n = crashes.addObject();
        n.put("seq", x.seq());
        n.put("retryNumber", x.retryNumber());
        putIfSet(n, "node", x.node());
        putIfSet(n, "leasedAt", x.leasedAt() == null ? null : x.leasedAt().toString());
        putIfSet(n, "endedAt", x.endedAt() == null ? null : x.endedAt().toString());
      }
      return new Stored("CHECKPOINT", null, null, d.toString());
    }
    throw new IllegalArgumentException(
        "inbox: the store writes " + message.getClass().getSimpleName());
  }

  /**
   * A poisoned batch as the failure's {@code poisonedMessage}: the instance, its try and every row
   * with its data, so an operator's retry can put it back.
   */
  public static String poisonedBatch(String instanceId, int attempt, List<InboxRow> batch) {
    ArrayNode rows = MAPPER.createArrayNode();
    for (InboxRow r : batch) {
      ObjectNode n = rows.addObject();
      n.put("seq", r.seq());
      n.put("kind", r.kind());
      if (r.executionId() != null) {
        n.put("executionId", r.executionId());
      }
      if (r.refSeq() != null) {
        n.put("refSeq", r.refSeq());
      }
      putIfSet(n, "name", r.name());
      putIfSet(n, "data", r.data());
      n.put("visibleAt", r.visibleAt().toString());
    }
    ObjectNode n = MAPPER.createObjectNode();
    n.put("instanceId", instanceId);
    n.put("attempt", attempt);
    n.set("batch", rows);
    return n.toString();
  }

  /** The rows of a poisoned batch ({@link #poisonedBatch}); none for any other text. */
  public static List<PoisonedRow> batchOf(String poisonedMessage) {
    List<PoisonedRow> rows = new ArrayList<>();
    JsonNode poisoned = lenient(poisonedMessage);
    for (JsonNode r : poisoned.path("batch")) {
      rows.add(
          new PoisonedRow(
              r.hasNonNull("executionId") ? r.get("executionId").asInt() : null,
              r.path("kind").asText(),
              r.hasNonNull("refSeq") ? r.get("refSeq").asLong() : null,
              text(r, "name"),
              text(r, "data")));
    }
    return rows;
  }

  /** The crash-loop record of a poisoned activity message, if the breaker poisoned it. */
  public static Optional<CrashLoop> crashLoopOf(String poisonedMessage) {
    JsonNode snapshot = lenient(poisonedMessage);
    if (!snapshot.path("crashedWorkers").isArray()) {
      return Optional.empty();
    }
    List<String> workers = new ArrayList<>();
    snapshot.get("crashedWorkers").forEach(w -> workers.add(w.asText()));
    return Optional.of(new CrashLoop(workers, snapshot.path("maxCrashes").asInt(workers.size())));
  }

  private static Checkpoint checkpoint(String data) {
    List<LocalCrash> crashes = new ArrayList<>();
    if (data != null) {
      for (JsonNode n : parse(data).path("crashes")) {
        crashes.add(
            new LocalCrash(
                n.path("seq").asLong(),
                n.path("retryNumber").asInt(),
                text(n, "node"),
                n.hasNonNull("leasedAt") ? Instant.parse(n.get("leasedAt").asText()) : null,
                n.hasNonNull("endedAt") ? Instant.parse(n.get("endedAt").asText()) : null));
      }
    }
    return new Checkpoint(crashes);
  }

  /** The store read the row's data into a record; the runtime never parses it. */
  private static ActivityResult activityResult(InboxRow row) {
    io.redrive.store.workflow.ActivityResult r = row.activityResult();
    if (r == null) {
      throw new IllegalArgumentException("the store could not read this activity result");
    }
    String outcome = r.outcome().name();
    FailureRecord f = r.failure();
    ActivityFailure failure = null;
    if (r.outcome() != Outcome.COMPLETED) {
      failure =
          f == null
              ? new ActivityFailure(null, null, null, null, false, null, null, null, null)
              : new ActivityFailure(
                  f.reason().name(),
                  f.category().name(),
                  f.message(),
                  f.stackTrace(),
                  f.retryable(),
                  r.retryAfter() == null ? null : r.retryAfter().toMillis(),
                  f.attempt(),
                  f.maxAttempts(),
                  f.poisonedMessage() == null && r.outcome() == Outcome.POISONED
                      ? row.data()
                      : f.poisonedMessage());
    }
    return new ActivityResult(
        refSeq(row),
        row.executionId(),
        r.messageId() == null ? "" : r.messageId(),
        outcome,
        r.attempts(),
        r.result() == null ? NullNode.instance : parse(r.result()),
        failure,
        r.story() == null ? MissingNode.getInstance() : parse(r.story()));
  }

  private static long refSeq(InboxRow row) {
    if (row.refSeq() == null) {
      throw new IllegalArgumentException(
          "inbox row " + row.seq() + " (" + row.kind() + ") names no command");
    }
    return row.refSeq();
  }

  private static JsonNode parse(String text) {
    if (text == null) {
      return NullNode.instance;
    }
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("inbox data does not parse: " + e.getOriginalMessage(), e);
    }
  }

  private static JsonNode lenient(String text) {
    try {
      return text == null ? NullNode.instance : MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      return NullNode.instance;
    }
  }
}
