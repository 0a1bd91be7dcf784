package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.OrchestrationContext;
import io.redrive.workflow.WorkflowDefaults;
import io.redrive.workflow.WorkflowFailure;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.helpers.NOPLogger;

/**
 * Synthetic in-memory histories for replay tests, written the way {@link OrchestrationRun} writes
 * them: ORCHESTRATION_STARTED as event 1, a TURN_STARTED opening each turn ({@code at} = the turn's
 * time), commands and completions with the data fields the engine puts. {@link #newTurn} marks
 * where this turn's events begin ({@code Spec.newFrom}); a history never given a new turn is a
 * first turn (everything new). {@link #commit} appends what a run emitted, as the store would.
 *
 * <p>Not thread-safe; one builder per test.
 */
final class Histories {
  static final String INSTANCE = "order-1";
  static final Instant T1 = Instant.parse("2026-03-01T10:00:00Z");
  static final Instant T2 = T1.plusSeconds(60);
  static final Instant T3 = T1.plusSeconds(3_600);
  static final Instant T4 = T1.plusSeconds(7_200);
  static final Instant T5 = T1.plusSeconds(10_800);
  static final Instant T6 = T1.plusSeconds(14_400);

  static final ObjectMapper MAPPER =
      new ObjectMapper()
          .registerModule(new JavaTimeModule())
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final List<HistoryEvent> events = new ArrayList<>();
  private final List<JsonNode> carried = new ArrayList<>();
  private int turn;
  private Instant at;
  private int newFrom;
  private String instanceId = INSTANCE;
  private OrchestrationContext.ParentRef parent;
  private int executionId = 1;
  private long firstSeq = 1;
  private JsonNode input = JSON.nullNode();
  private Type inputType = Object.class;
  private int maxHistoryEvents = WorkflowDefaults.MAX_HISTORY_EVENTS;
  private long maxHistoryBytes = WorkflowDefaults.MAX_HISTORY_BYTES;
  private Payloads payloads = payloads(256 * 1024);
  private Logger logger = NOPLogger.NOP_LOGGER;

  private Histories() {}

  static Payloads payloads(int maxBytes) {
    return new Payloads(MAPPER, maxBytes);
  }

  /** A new execution's first turn at {@link #T1}: ORCHESTRATION_STARTED, TURN_STARTED 1. */
  static Histories start() {
    return start(T1);
  }

  /** A new execution's first turn at {@code at}: ORCHESTRATION_STARTED, TURN_STARTED 1. */
  static Histories start(Instant at) {
    Histories h = new Histories();
    h.turn = 1;
    h.at = at;
    h.add(EventKind.ORCHESTRATION_STARTED, null, null, h.startedData());
    h.add(EventKind.TURN_STARTED, null, null, turnData(1));
    return h;
  }

  // ---- the execution

  Histories instanceId(String value) {
    this.instanceId = value;
    return this;
  }

  Histories parent(OrchestrationContext.ParentRef value) {
    this.parent = value;
    return this;
  }

  Histories executionId(int value) {
    this.executionId = value;
    return this;
  }

  Histories firstSeq(long value) {
    this.firstSeq = value;
    return this;
  }

  /** The execution's input (also written into ORCHESTRATION_STARTED) and the type it decodes to. */
  Histories input(Object value, Type type) {
    this.input = MAPPER.valueToTree(value);
    this.inputType = type;
    ((ObjectNode) events.get(0).data()).set("input", input);
    return this;
  }

  /** An event a continue-as-new carried into this execution. */
  Histories carried(String name, Object payload) {
    carried.add(eventData(name, payload));
    return this;
  }

  Histories maxHistoryEvents(int value) {
    this.maxHistoryEvents = value;
    return this;
  }

  Histories maxHistoryBytes(long value) {
    this.maxHistoryBytes = value;
    return this;
  }

  Histories payloads(Payloads value) {
    this.payloads = value;
    return this;
  }

  Histories logger(Logger value) {
    this.logger = value;
    return this;
  }

  // ---- turns

  /** Opens a stored (already committed) turn at {@code time}. */
  Histories turn(Instant time) {
    turn++;
    at = time;
    add(EventKind.TURN_STARTED, null, null, turnData(turn));
    return this;
  }

  /** Opens this turn at {@code time}: its TURN_STARTED and what follows are the new part. */
  Histories newTurn(Instant time) {
    newFrom = events.size();
    return turn(time);
  }

  /** Appends what {@code result} emitted, as the store would commit it in the current turn. */
  Histories commit(RunResult result) {
    for (NewEvent e : result.events()) {
      add(e.kind(), e.seq(), e.name(), e.data().deepCopy());
    }
    return this;
  }

  // ---- commands (the name column is what OrchestrationRun gives NewEvent.name)

  Histories activityScheduled(long seq, String name, Object input) {
    return activityScheduled(seq, name, input, 0);
  }

  Histories activityScheduled(long seq, String name, Object input, int retryNumber) {
    ObjectNode d = seqData(seq);
    d.put("name", name);
    d.set("input", MAPPER.valueToTree(input));
    d.put("retryNumber", retryNumber);
    return add(EventKind.ACTIVITY_SCHEDULED, seq, name, d);
  }

  Histories timerCreated(long seq, Instant fireAt) {
    return timer(seq, fireAt, TimerPurpose.USER, null, null);
  }

  Histories eventTimeoutCreated(long seq, Instant fireAt, String eventName) {
    return timer(seq, fireAt, TimerPurpose.EVENT_TIMEOUT, eventName, null);
  }

  Histories retryTimerCreated(long seq, Instant fireAt, int retryNumber) {
    return timer(seq, fireAt, TimerPurpose.RETRY, null, retryNumber);
  }

  private Histories timer(
      long seq, Instant fireAt, String purpose, String eventName, Integer retryNumber) {
    ObjectNode d = seqData(seq);
    d.put("fireAt", fireAt.toString());
    d.put("purpose", purpose);
    if (eventName != null) {
      d.put("event", eventName);
    }
    if (retryNumber != null) {
      d.put("retryNumber", retryNumber);
    }
    return add(EventKind.TIMER_CREATED, seq, purpose, d);
  }

  Histories childScheduled(long seq, String name, Object input) {
    ObjectNode d = seqData(seq);
    d.put("name", name);
    d.put("instanceId", instanceId + "::sub::" + seq);
    d.put("explicitId", false);
    d.set("input", MAPPER.valueToTree(input));
    return add(EventKind.CHILD_SCHEDULED, seq, name, d);
  }

  Histories patchApplied(long seq, String changeId) {
    ObjectNode d = seqData(seq);
    d.put("changeId", changeId);
    return add(EventKind.PATCH_APPLIED, seq, changeId, d);
  }

  // ---- completions

  Histories activityCompleted(long seq, Object result) {
    ObjectNode d = seqData(seq);
    d.set("result", MAPPER.valueToTree(result));
    return add(EventKind.ACTIVITY_COMPLETED, seq, null, d);
  }

  /** ACTIVITY_COMPLETED whose result is the given JSON, as is. */
  Histories activityCompletedJson(long seq, JsonNode result) {
    ObjectNode d = seqData(seq);
    d.set("result", result);
    return add(EventKind.ACTIVITY_COMPLETED, seq, null, d);
  }

  Histories activityFailed(long seq, WorkflowFailure failure) {
    return activityFailed(seq, failure, 0);
  }

  Histories activityFailed(long seq, WorkflowFailure failure, int retryNumber) {
    ObjectNode d = seqData(seq);
    d.set("failure", FailureCodec.write(failure));
    d.put("retryNumber", retryNumber);
    return add(EventKind.ACTIVITY_FAILED, seq, null, d);
  }

  /** ACTIVITY_FAILED whose failure field is the given JSON, as is. */
  Histories activityFailedJson(long seq, JsonNode failure) {
    ObjectNode d = seqData(seq);
    d.set("failure", failure);
    d.put("retryNumber", 0);
    return add(EventKind.ACTIVITY_FAILED, seq, null, d);
  }

  Histories timerFired(long seq) {
    return timerFired(seq, TimerPurpose.USER, null);
  }

  Histories eventTimeoutFired(long seq) {
    return timerFired(seq, TimerPurpose.EVENT_TIMEOUT, null);
  }

  Histories retryTimerFired(long seq, int retryNumber) {
    return timerFired(seq, TimerPurpose.RETRY, retryNumber);
  }

  private Histories timerFired(long seq, String purpose, Integer retryNumber) {
    ObjectNode d = seqData(seq);
    d.put("purpose", purpose);
    if (retryNumber != null) {
      d.put("retryNumber", retryNumber);
    }
    return add(EventKind.TIMER_FIRED, seq, null, d);
  }

  Histories eventRaised(String name, Object payload) {
    return add(EventKind.EVENT_RAISED, null, name, eventData(name, payload));
  }

  Histories childCompleted(long seq, Object result) {
    ObjectNode d = seqData(seq);
    d.set("result", MAPPER.valueToTree(result));
    return add(EventKind.CHILD_COMPLETED, seq, null, d);
  }

  Histories childFailed(long seq, WorkflowFailure failure) {
    ObjectNode d = seqData(seq);
    d.set("failure", FailureCodec.write(failure));
    return add(EventKind.CHILD_FAILED, seq, null, d);
  }

  // ---- what a run sees

  List<HistoryEvent> events() {
    return List.copyOf(events);
  }

  int newFrom() {
    return newFrom;
  }

  OrchestrationRun.Spec spec() {
    return new OrchestrationRun.Spec(
        instanceId,
        executionId,
        "order",
        "1.0.0",
        parent,
        input,
        firstSeq,
        carried,
        events,
        newFrom,
        maxHistoryEvents,
        maxHistoryBytes);
  }

  /** A run of {@code code} against this history (this turn = the part after {@link #newTurn}). */
  OrchestrationRun runOf(Orchestration<?, ?> code) {
    return new OrchestrationRun(spec(), code, inputType, payloads, logger);
  }

  /** Runs {@code code} against this history. */
  RunResult run(Orchestration<?, ?> code) {
    return runOf(code).run();
  }

  // ---- failures

  /** A retryable application failure, as an activity that threw would record it. */
  static WorkflowFailure threw(String message) {
    return WorkflowFailure.application(
        "HANDLER_EXCEPTION", message, "com.example.GatewayException", "at Gateway.call", true);
  }

  /** A failure a retry policy does not retry. */
  static WorkflowFailure threwFinal(String message) {
    return WorkflowFailure.application(
        "HANDLER_EXCEPTION", message, "com.example.CardDeclinedException", null, false);
  }

  // ---- plumbing

  private Histories add(String kind, Long seq, String name, JsonNode data) {
    events.add(new HistoryEvent(events.size() + 1, kind, seq, name, data, turn, at));
    return this;
  }

  private ObjectNode startedData() {
    ObjectNode d = JSON.objectNode();
    d.put("name", "order");
    d.put("version", "1.0.0");
    d.set("input", input);
    d.putNull("parent");
    d.put("firstSeq", firstSeq);
    d.putArray("carriedEvents");
    return d;
  }

  private static ObjectNode turnData(int turn) {
    ObjectNode d = JSON.objectNode();
    d.put("turn", turn);
    d.put("node", "node-a");
    d.put("build", "build-1");
    d.put("attempt", 1);
    return d;
  }

  private static ObjectNode seqData(long seq) {
    ObjectNode d = JSON.objectNode();
    d.put("seq", seq);
    return d;
  }

  private static ObjectNode eventData(String name, Object payload) {
    ObjectNode d = JSON.objectNode();
    d.put("name", name);
    d.set("payload", MAPPER.valueToTree(payload));
    return d;
  }

  /** {@code result} as {@code type}, failing with the whole result when it is another outcome. */
  static <T extends RunResult> T as(Class<T> type, RunResult result) {
    if (!type.isInstance(result)) {
      throw new AssertionError("expected " + type.getSimpleName() + " but was " + result);
    }
    return type.cast(result);
  }
}
