package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.OrchestrationContext;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ActivityCompleted;
import io.redrive.workflow.history.Event.ActivityFailed;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.Event.ChildCompleted;
import io.redrive.workflow.history.Event.ChildFailed;
import io.redrive.workflow.history.Event.ChildScheduled;
import io.redrive.workflow.history.Event.EventRaised;
import io.redrive.workflow.history.Event.OrchestrationStarted;
import io.redrive.workflow.history.Event.PatchApplied;
import io.redrive.workflow.history.Event.RaisedEvent;
import io.redrive.workflow.history.Event.TimerCreated;
import io.redrive.workflow.history.Event.TimerFired;
import io.redrive.workflow.history.Event.TurnStarted;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.TimerPurpose;
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
  private final List<RaisedEvent> carried = new ArrayList<>();
  private int turn;
  private Instant at;
  private int newFrom;
  private String instanceId = INSTANCE;
  private OrchestrationContext.ParentRef parent;
  private int executionId = 1;
  private long firstSeq = 1;
  private JsonNode input = JSON.nullNode();
  private Type inputType = Object.class;
  private int maxHistoryEvents = 10_000;
  private long maxHistoryBytes = 16L * 1024 * 1024;
  private OrchestrationRun.Placement placement = OrchestrationRun.Placement.QUEUED;
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
    h.add(h.started());
    h.add(turnStarted(1));
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
    HistoryEvent first = events.get(0);
    events.set(0, new HistoryEvent(first.eventId(), first.turn(), first.at(), started()));
    return this;
  }

  /** An event a continue-as-new carried into this execution. */
  Histories carried(String name, Object payload) {
    carried.add(new RaisedEvent(name, MAPPER.valueToTree(payload)));
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
    return add(turnStarted(turn));
  }

  /** Opens this turn at {@code time}: its TURN_STARTED and what follows are the new part. */
  Histories newTurn(Instant time) {
    newFrom = events.size();
    return turn(time);
  }

  /** Appends what {@code result} emitted, as the store would commit it in the current turn. */
  Histories commit(RunResult result) {
    for (Event e : result.events()) {
      add(e);
    }
    return this;
  }

  // ---- commands

  Histories activityScheduled(long seq, String name, Object input) {
    return activityScheduled(seq, name, input, 0);
  }

  Histories activityScheduled(long seq, String name, Object input, int retryNumber) {
    return add(
        new ActivityScheduled(seq, name, MAPPER.valueToTree(input), null, retryNumber, null));
  }

  Histories timerCreated(long seq, Instant fireAt) {
    return add(new TimerCreated(seq, fireAt, TimerPurpose.USER, null, null, null));
  }

  Histories eventTimeoutCreated(long seq, Instant fireAt, String eventName) {
    return add(new TimerCreated(seq, fireAt, TimerPurpose.EVENT_TIMEOUT, eventName, null, null));
  }

  Histories retryTimerCreated(long seq, Instant fireAt, int retryNumber) {
    return add(new TimerCreated(seq, fireAt, TimerPurpose.RETRY, null, retryNumber, null));
  }

  Histories childScheduled(long seq, String name, Object input) {
    return add(
        new ChildScheduled(
            seq, name, null, instanceId + "::sub::" + seq, false, MAPPER.valueToTree(input), 0));
  }

  Histories patchApplied(long seq, String changeId) {
    return add(new PatchApplied(seq, changeId));
  }

  // ---- completions

  Histories activityCompleted(long seq, Object result) {
    return activityCompletedJson(seq, MAPPER.valueToTree(result));
  }

  /** ACTIVITY_COMPLETED whose result is the given JSON, as is. */
  Histories activityCompletedJson(long seq, JsonNode result) {
    return add(new ActivityCompleted(seq, null, 0, null, result, null));
  }

  Histories activityFailed(long seq, WorkflowFailure failure) {
    return activityFailed(seq, failure, 0);
  }

  Histories activityFailed(long seq, WorkflowFailure failure, int retryNumber) {
    return add(new ActivityFailed(seq, null, retryNumber, null, failure, null));
  }

  Histories timerFired(long seq) {
    return add(new TimerFired(seq, TimerPurpose.USER, null));
  }

  Histories eventTimeoutFired(long seq) {
    return add(new TimerFired(seq, TimerPurpose.EVENT_TIMEOUT, null));
  }

  Histories retryTimerFired(long seq, int retryNumber) {
    return add(new TimerFired(seq, TimerPurpose.RETRY, retryNumber));
  }

  Histories eventRaised(String name, Object payload) {
    return add(new EventRaised(name, MAPPER.valueToTree(payload)));
  }

  Histories childCompleted(long seq, Object result) {
    return add(new ChildCompleted(seq, null, 0, MAPPER.valueToTree(result)));
  }

  Histories childFailed(long seq, WorkflowFailure failure) {
    return add(new ChildFailed(seq, null, 0, failure));
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
        maxHistoryBytes,
        placement);
  }

  /** Places this turn's new activity calls with {@code value}. */
  Histories placement(OrchestrationRun.Placement value) {
    this.placement = value;
    return this;
  }

  Histories localActivityScheduled(long seq, String name, Object input) {
    return add(new ActivityScheduled(seq, name, MAPPER.valueToTree(input), null, 0, null, true));
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

  /** An emitted event as the store keeps it (kind, seq and name columns, JSON data). */
  static EventCodec.Stored stored(Event e) {
    return EventCodec.encode(e);
  }

  // ---- plumbing

  private Histories add(Event e) {
    events.add(new HistoryEvent(events.size() + 1, turn, at, e));
    return this;
  }

  private OrchestrationStarted started() {
    return new OrchestrationStarted(null, "order", "1.0.0", input, null, firstSeq, List.of());
  }

  private static TurnStarted turnStarted(int turn) {
    return new TurnStarted(turn, "node-a", "build-1", 1);
  }

  /** {@code result} as {@code type}, failing with the whole result when it is another outcome. */
  static <T extends RunResult> T as(Class<T> type, RunResult result) {
    if (!type.isInstance(result)) {
      throw new AssertionError("expected " + type.getSimpleName() + " but was " + result);
    }
    return type.cast(result);
  }
}
