package io.redrive.workflow.replay;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.OrchestrationContext;
import io.redrive.workflow.SubOrchestrationOptions;
import io.redrive.workflow.Task;
import io.redrive.workflow.TurnSuspended;
import io.redrive.workflow.history.Event.PatchApplied;
import io.redrive.workflow.history.Event.RaisedEvent;
import io.redrive.workflow.history.Event.TimerCreated;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.TimerPurpose;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.slf4j.Logger;

/**
 * One run of orchestration code against its execution's history, for one turn (docs/workflows.md,
 * "How a turn runs"): the code runs from its first line on the calling thread; each durable call
 * takes the next command number and is matched against history; awaiting a task advances a cursor
 * over the history until the task's result turns up, or suspends the code when history ends.
 *
 * <p>This class is the context the code calls; the replay itself lives beside it: {@link RunState}
 * (the cursor, the time, the stops), {@link CommandLog} (matching commands), {@link EventBuffer}
 * (external events) and one unit per command kind ({@link ActivityCall}, {@link ChildCall}, {@link
 * TimerWait}, {@link EventWait} with {@link EventTimeout}, {@link AllOfTask}, {@link AnyOfTask}).
 * Entered only by the thread that called {@link #run()}, during that call.
 */
public final class OrchestrationRun implements OrchestrationContext {

  /**
   * What a run needs to know about its execution.
   *
   * @param instanceId the instance
   * @param executionId the execution
   * @param name the orchestration's name
   * @param version the version this execution runs
   * @param parent the parent that started it, or null
   * @param input the execution's input
   * @param firstSeq its first command number
   * @param carriedEvents events a continue-as-new carried in, oldest first
   * @param events the whole history: stored events, then this turn's (its TURN_STARTED first)
   * @param newFrom the index in {@code events} where this turn's events begin
   * @param maxHistoryEvents the history limit in events
   * @param maxHistoryBytes the history limit in bytes
   * @param placement where this node runs the activities the code newly calls
   */
  public record Spec(
      String instanceId,
      int executionId,
      String name,
      String version,
      ParentRef parent,
      JsonNode input,
      long firstSeq,
      List<RaisedEvent> carriedEvents,
      List<HistoryEvent> events,
      int newFrom,
      int maxHistoryEvents,
      long maxHistoryBytes,
      Placement placement) {
    public Spec {
      carriedEvents = List.copyOf(carriedEvents);
      events = List.copyOf(events);
      placement = placement == null ? Placement.QUEUED : placement;
    }
  }

  /**
   * Where this node runs an activity call it issues: true for in the turn's process (recorded in
   * the command, so replays never ask again). Pure: it may read only what the node registers and
   * its settings. Called by the thread running the code.
   */
  @FunctionalInterface
  public interface Placement {
    /** Every call through its queue. */
    Placement QUEUED = (name, options) -> false;

    boolean local(String activity, ActivityOptions options);
  }

  private final Spec spec;
  private final Orchestration<Object, Object> code;
  private final Type inputType;
  private final Payloads payloads;
  private final Logger replaySilentLogger;
  private final RunState state;

  private boolean swallowedSuspension;
  private long uuidCounter;
  private Random random;

  /**
   * @param spec the execution and its history
   * @param code the orchestration
   * @param inputType what its input decodes to
   * @param payloads the JSON codec and payload limit
   * @param logger the logger {@link #logger()} forwards to while not replaying
   */
  @SuppressWarnings("unchecked")
  public OrchestrationRun(
      Spec spec, Orchestration<?, ?> code, Type inputType, Payloads payloads, Logger logger) {
    this.spec = spec;
    this.code = (Orchestration<Object, Object>) code;
    this.inputType = inputType;
    this.payloads = payloads;
    this.state = new RunState(spec, payloads);
    this.replaySilentLogger = ReplaySilentLogger.wrap(logger, state::isReplaying);
  }

  /**
   * Runs the code on the calling thread to its end or its suspension.
   *
   * @throws Error what the code threw that is neither an exception nor a signal of ours (e.g. an
   *     OutOfMemoryError): the runtime abandons the turn (NODE_ERROR)
   */
  public RunResult run() {
    state.owner = Thread.currentThread();
    Object output = null;
    Exception thrown = null;
    boolean signalled = false;
    try {
      Object input = payloads.decode("input", spec.input(), inputType);
      output = code.run(this, input);
    } catch (TurnSuspended | ReplaySignal e) {
      // recorded in fields before it was thrown
      signalled = true;
    } catch (Payloads.UndecodablePayload e) {
      state.undecodable = e.getMessage();
      signalled = true;
    } catch (Exception e) {
      thrown = e;
    } finally {
      state.owner = null;
    }
    // The code went on after a suspension it caught: its return value or exception is ignored.
    swallowedSuspension = state.suspended && !signalled;
    return RunEnding.of(state, payloads, output, thrown);
  }

  /**
   * The command numbers of event-timeout timers whose wait an event of this turn ended first: their
   * inbox rows are no longer needed.
   */
  public List<Long> lostTimers() {
    return List.copyOf(state.lostTimers);
  }

  /** True when the code caught the suspension signal and carried on (it still suspended). */
  public boolean swallowedSuspension() {
    return swallowedSuspension;
  }

  // ---- OrchestrationContext

  @Override
  public String instanceId() {
    return spec.instanceId();
  }

  @Override
  public int executionId() {
    return spec.executionId();
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public String version() {
    return spec.version();
  }

  @Override
  public Optional<ParentRef> parent() {
    return Optional.ofNullable(spec.parent());
  }

  @Override
  public boolean isReplaying() {
    return state.isReplaying();
  }

  @Override
  public Instant now() {
    state.enter();
    return state.now;
  }

  @Override
  public UUID newUuid() {
    state.enter();
    String seed = spec.instanceId() + "/" + spec.executionId() + "/" + uuidCounter++;
    return UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public Random random() {
    state.enter();
    if (random == null) {
      String seed = spec.instanceId() + "/" + spec.executionId();
      random =
          new Random(
              UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8))
                  .getMostSignificantBits());
    }
    return random;
  }

  @Override
  public Logger logger() {
    return replaySilentLogger;
  }

  @Override
  public <O> Task<O> callActivity(String name, Object input, Class<O> resultType) {
    return callActivity(name, input, (Type) resultType, ActivityOptions.defaults());
  }

  @Override
  public <O> Task<O> callActivity(
      String name, Object input, TypeReference<O> resultType, ActivityOptions options) {
    return callActivity(name, input, resultType.getType(), options);
  }

  private <O> Task<O> callActivity(
      String name, Object input, Type resultType, ActivityOptions options) {
    state.enter();
    requireName("activity name", name);
    return ActivityCall.issue(state, name, input, options, resultType);
  }

  @Override
  public <O> Task<O> callSubOrchestration(String name, Object input, Class<O> resultType) {
    return callSubOrchestration(name, input, (Type) resultType, SubOrchestrationOptions.defaults());
  }

  @Override
  public <O> Task<O> callSubOrchestration(
      String name, Object input, TypeReference<O> resultType, SubOrchestrationOptions options) {
    return callSubOrchestration(name, input, resultType.getType(), options);
  }

  private <O> Task<O> callSubOrchestration(
      String name, Object input, Type resultType, SubOrchestrationOptions options) {
    state.enter();
    requireName("orchestration name", name);
    return ChildCall.issue(state, name, input, options, resultType);
  }

  @Override
  public Task<Void> createTimer(Duration delay) {
    state.enter();
    if (delay == null || delay.isNegative()) {
      throw new IllegalArgumentException("timer delay: must be zero or positive, was " + delay);
    }
    return createTimer(state.now.plus(delay));
  }

  @Override
  public Task<Void> createTimer(Instant fireAt) {
    state.enter();
    if (fireAt == null) {
      throw new IllegalArgumentException("timer fireAt: is required");
    }
    long seq = timer(fireAt, TimerPurpose.USER, null);
    return state.register(new TimerWait(state, seq));
  }

  private long timer(Instant fireAt, TimerPurpose purpose, String eventName) {
    long seq = state.commands.issue(state, EventKind.TIMER_CREATED, purpose.name());
    if (state.commands.isNew(seq)) {
      state.out.add(new TimerCreated(seq, fireAt, purpose, eventName, null, null));
    }
    return seq;
  }

  @Override
  public <T> Task<T> waitForEvent(String name, Class<T> type) {
    state.enter();
    requireName("event name", name);
    EventWait<T> task = new EventWait<>(state, name, type);
    state.buffer.take(task);
    return task;
  }

  @Override
  public <T> Task<Optional<T>> waitForEvent(String name, Class<T> type, Duration timeout) {
    state.enter();
    requireName("event name", name);
    if (timeout == null || timeout.isNegative()) {
      throw new IllegalArgumentException("event timeout: must be zero or positive, was " + timeout);
    }
    EventWait<T> event = new EventWait<>(state, name, type);
    if (!state.buffer.take(event)) {
      long seq = timer(state.now.plus(timeout), TimerPurpose.EVENT_TIMEOUT, name);
      event.timeoutSeq = seq;
      state.register(new EventTimeout(state, seq, event));
    }
    return new OptionalEventWait<>(event);
  }

  @Override
  public <T> Task<List<T>> allOf(List<Task<T>> tasks) {
    state.enter();
    return new AllOfTask<>(state, List.copyOf(tasks));
  }

  @Override
  public Task<Task<?>> anyOf(List<? extends Task<?>> tasks) {
    state.enter();
    if (tasks.isEmpty()) {
      throw new IllegalArgumentException("anyOf: needs at least one task");
    }
    return new AnyOfTask(state, List.copyOf(tasks));
  }

  @Override
  public void setStatus(Object status) {
    state.enter();
    state.customStatus = payloads.encode("custom status", status);
  }

  @Override
  public boolean patched(String changeId) {
    state.enter();
    requireName("change id", changeId);
    if (state.commands.hasNext()) {
      // Without the marker there, the history went on without it: recorded before the change.
      return state.commands.skipPatch(changeId);
    }
    state.out.add(new PatchApplied(state.commands.take(), changeId));
    return true;
  }

  @Override
  public void deprecatePatch(String changeId) {
    state.enter();
    state.commands.skipPatch(changeId);
  }

  @Override
  public <R> R continueAsNew(Object input) {
    return continueAsNew(null, input);
  }

  @Override
  public <R> R continueAsNew(String version, Object input) {
    state.enter();
    JsonNode inputNode = payloads.encode("continue-as-new input", input);
    throw state.continueAsNew(version, inputNode);
  }

  @Override
  public boolean isContinueAsNewSuggested() {
    HistorySize size = historySize();
    return size.events() * 2L > spec.maxHistoryEvents()
        || size.bytes() * 2 > spec.maxHistoryBytes();
  }

  /**
   * The history as far as the code has consumed it (the cursor), not the whole history of this
   * turn: the same code point sees the same size in every replay, so a decision on it (typically
   * continue-as-new) does not change when later turns grow the history.
   */
  @Override
  public HistorySize historySize() {
    return new HistorySize(state.cursor, state.bytesConsumed());
  }

  private static void requireName(String what, String value) {
    if (value == null || value.isBlank() || value.length() > 200) {
      throw new IllegalArgumentException(
          what + ": must be 1-200 characters, was \"" + value + "\"");
    }
  }
}
