package io.redrive.workflow.replay;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.PayloadTooLargeException;
import io.redrive.failure.StackTraces;
import io.redrive.workflow.ActivityFailedException;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.AllOfFailedException;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.OrchestrationContext;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.SubOrchestrationFailedException;
import io.redrive.workflow.SubOrchestrationOptions;
import io.redrive.workflow.Task;
import io.redrive.workflow.TurnSuspended;
import io.redrive.workflow.WorkflowDefaults;
import io.redrive.workflow.WorkflowException;
import io.redrive.workflow.WorkflowFailure;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;

/**
 * One run of orchestration code against its execution's history, for one turn (docs/workflows.md,
 * "How a turn runs"): the code runs from its first line on the calling thread; each durable call
 * takes the next command number and is matched against history; awaiting a task advances a cursor
 * over the history until the task's result turns up, or suspends the code when history ends.
 *
 * <p>Implementation notes. History is consumed lazily, only when code awaits something not yet
 * done, so what {@link Task#isDone()}, {@link #now()} and the event buffer show at a point of the
 * code is the same in every replay. Commands are matched by number; completions find their task by
 * number. Mismatches are recorded in a field before the signal is thrown, so code that catches
 * {@code Throwable} cannot hide them. Not thread-safe: one run, one thread.
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
   */
  public record Spec(
      String instanceId,
      int executionId,
      String name,
      String version,
      ParentRef parent,
      JsonNode input,
      long firstSeq,
      List<JsonNode> carriedEvents,
      List<HistoryEvent> events,
      int newFrom,
      int maxHistoryEvents,
      long maxHistoryBytes) {
    public Spec {
      carriedEvents = List.copyOf(carriedEvents);
      events = List.copyOf(events);
    }
  }

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final Spec spec;
  private final Orchestration<Object, Object> code;
  private final Type inputType;
  private final Payloads payloads;
  private final Logger replaySilentLogger;
  private final Map<Long, HistoryEvent> commands = new HashMap<>();
  private final Set<String> recorded = new HashSet<>();
  private final Map<Long, BaseTask<?>> tasks = new HashMap<>();
  private final Map<Long, HistoryEvent> orphans = new HashMap<>();
  private final Map<String, Deque<Buffered>> buffered = new HashMap<>();
  private final Map<String, Deque<EventTask<?>>> waiters = new HashMap<>();
  private final List<NewEvent> out = new ArrayList<>();
  private final List<Long> lostTimers = new ArrayList<>();

  /** {@code bytesBefore[i]}: the data bytes of the first {@code i} events (for historySize). */
  private final long[] bytesBefore;

  private Thread owner;
  private int cursor;
  private Instant now;
  private long nextSeq;
  private boolean suspended;
  private boolean swallowedSuspension;
  private Long suspendedAt;
  private String mismatch;
  private Mismatch mismatchDetail;
  private String undecodable;
  private ContinueRequest continueRequest;
  private JsonNode customStatus;
  private long uuidCounter;
  private Random random;

  private record Buffered(JsonNode payload, int position) {}

  private record ContinueRequest(String version, JsonNode input) {}

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
    this.replaySilentLogger = replaySilent(logger);
    this.nextSeq = spec.firstSeq();
    this.bytesBefore = new long[spec.events().size() + 1];
    int index = 0;
    for (HistoryEvent e : spec.events()) {
      bytesBefore[index + 1] =
          bytesBefore[index] + payloads.text(e.data()).getBytes(StandardCharsets.UTF_8).length;
      index++;
      if (e.seq() == null) {
        continue;
      }
      switch (e.kind()) {
        case EventKind.ACTIVITY_SCHEDULED -> {
          int retry = e.integer("retryNumber", 0);
          recorded.add(retryKey(EventKind.ACTIVITY_SCHEDULED, e.seq(), retry));
          if (retry == 0) {
            commands.putIfAbsent(e.seq(), e);
          }
        }
        case EventKind.TIMER_CREATED -> {
          if (TimerPurpose.RETRY.equals(e.text("purpose"))) {
            recorded.add(retryKey(EventKind.TIMER_CREATED, e.seq(), e.integer("retryNumber", 0)));
          } else {
            commands.putIfAbsent(e.seq(), e);
          }
        }
        case EventKind.CHILD_SCHEDULED -> {
          int retry = e.integer("retryNumber", 0);
          recorded.add(retryKey(EventKind.CHILD_SCHEDULED, e.seq(), retry));
          if (retry == 0) {
            commands.putIfAbsent(e.seq(), e);
          }
        }
        case EventKind.PATCH_APPLIED -> commands.putIfAbsent(e.seq(), e);
        default -> {}
      }
    }
    this.now =
        spec.events().stream()
            .filter(e -> e.kind().equals(EventKind.TURN_STARTED))
            .map(HistoryEvent::at)
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("history: no TURN_STARTED event"));
    int position = -spec.carriedEvents().size();
    for (JsonNode carried : spec.carriedEvents()) {
      String eventName = carried.path("name").asText();
      buffered
          .computeIfAbsent(eventName, k -> new ArrayDeque<>())
          .add(new Buffered(carried.get("payload"), position++));
    }
  }

  /**
   * Runs the code on the calling thread to its end or its suspension.
   *
   * @throws Error what the code threw that is neither an exception nor a signal of ours (e.g. an
   *     OutOfMemoryError): the runtime abandons the turn (NODE_ERROR)
   */
  public RunResult run() {
    owner = Thread.currentThread();
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
      undecodable = e.getMessage();
      signalled = true;
    } catch (Exception e) {
      thrown = e;
    } finally {
      owner = null;
    }
    // The code went on after a suspension it caught: its return value or exception is ignored.
    swallowedSuspension = suspended && !signalled;
    if (undecodable != null) {
      return new RunResult.Bounced("SERIALIZATION_ERROR", undecodable, null);
    }
    if (mismatch != null) {
      return new RunResult.Bounced(WorkflowFailure.NONDETERMINISM, mismatch, mismatchDetail);
    }
    if (suspended) {
      RunResult.Bounced unissued =
          unissued("suspended at #" + (suspendedAt == null ? nextSeq - 1 : suspendedAt));
      return unissued != null ? unissued : new RunResult.Suspended(out, customStatus);
    }
    if (continueRequest != null) {
      RunResult.Bounced unissued = unissued("continued as new");
      if (unissued != null) {
        return unissued;
      }
      return new RunResult.ContinuedAsNew(
          out,
          customStatus,
          continueRequest.input(),
          continueRequest.version(),
          unconsumedEvents(),
          nextSeq);
    }
    RunResult.Bounced unissued = unissued(thrown == null ? "completed" : "failed");
    if (unissued != null) {
      return unissued;
    }
    if (thrown != null) {
      return new RunResult.Failed(out, customStatus, failureOf(thrown));
    }
    try {
      return new RunResult.Completed(out, customStatus, payloads.encode("output", output));
    } catch (PayloadTooLargeException e) {
      return new RunResult.Failed(
          out,
          customStatus,
          WorkflowFailure.of(
              WorkflowFailure.PAYLOAD_TOO_LARGE,
              "application",
              e.getMessage(),
              spec.instanceId(),
              spec.executionId(),
              null));
    } catch (IllegalArgumentException e) {
      // the output cannot be written as JSON: a bug of the code, the same on every replay
      return new RunResult.Failed(out, customStatus, failureOf(e));
    }
  }

  /**
   * The command numbers of event-timeout timers whose wait an event of this turn ended first: their
   * inbox rows are no longer needed.
   */
  public List<Long> lostTimers() {
    return List.copyOf(lostTimers);
  }

  /** True when the code caught the suspension signal and carried on (it still suspended). */
  public boolean swallowedSuspension() {
    return swallowedSuspension;
  }

  private WorkflowFailure failureOf(Exception e) {
    WorkflowFailure cause = e instanceof WorkflowException w ? w.failure() : null;
    String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    return new WorkflowFailure(
        WorkflowFailure.ORCHESTRATION_EXCEPTION,
        "application",
        message,
        e.getClass().getName(),
        StackTraces.bounded(e, StackTraces.DEFAULT_MAX_CHARS),
        false,
        null,
        null,
        null,
        null,
        spec.instanceId(),
        spec.executionId(),
        null,
        null,
        null,
        List.of(),
        null,
        cause,
        null);
  }

  /** The (b) check: a command history has that the code did not issue before it ended. */
  private RunResult.Bounced unissued(String how) {
    Long first =
        commands.keySet().stream().filter(s -> s >= nextSeq).min(Long::compare).orElse(null);
    if (first == null) {
      return null;
    }
    HistoryEvent e = commands.get(first);
    String expected = e.kind() + " " + nameOf(e);
    String actual = "nothing (it " + how + ")";
    return new RunResult.Bounced(
        WorkflowFailure.NONDETERMINISM,
        prefix(first) + "history has " + expected + ", code issued " + actual,
        new Mismatch(e.eventId(), first, expected, actual));
  }

  private String prefix(long seq) {
    return "nondeterminism: "
        + spec.instanceId()
        + " execution "
        + spec.executionId()
        + " command #"
        + seq
        + ": ";
  }

  private static String nameOf(HistoryEvent e) {
    if (EventKind.PATCH_APPLIED.equals(e.kind())) {
      return e.text("changeId");
    }
    return e.name();
  }

  private List<JsonNode> unconsumedEvents() {
    List<Buffered> all = new ArrayList<>();
    buffered.values().forEach(all::addAll);
    all.sort((a, b) -> Integer.compare(a.position(), b.position()));
    List<JsonNode> result = new ArrayList<>();
    for (Buffered b : all) {
      result.add(eventNode(nameAt(b), b.payload()));
    }
    for (int i = cursor; i < spec.events().size(); i++) {
      HistoryEvent e = spec.events().get(i);
      if (EventKind.EVENT_RAISED.equals(e.kind())) {
        result.add(eventNode(e.name(), e.data().get("payload")));
      }
    }
    return result;
  }

  private String nameAt(Buffered b) {
    for (Map.Entry<String, Deque<Buffered>> entry : buffered.entrySet()) {
      if (entry.getValue().contains(b)) {
        return entry.getKey();
      }
    }
    throw new IllegalStateException("buffered event without a name");
  }

  private static JsonNode eventNode(String name, JsonNode payload) {
    ObjectNode n = JSON.objectNode();
    n.put("name", name);
    n.set("payload", payload == null ? JSON.nullNode() : payload);
    return n;
  }

  // ---- the cursor over history

  /** Takes the next history event; false when history has ended. */
  private boolean advance() {
    if (cursor >= spec.events().size()) {
      return false;
    }
    int position = cursor;
    HistoryEvent e = spec.events().get(cursor++);
    switch (e.kind()) {
      case EventKind.TURN_STARTED -> now = e.at();
      case EventKind.ACTIVITY_COMPLETED,
          EventKind.ACTIVITY_FAILED,
          EventKind.CHILD_COMPLETED,
          EventKind.CHILD_FAILED ->
          deliver(e, position);
      case EventKind.TIMER_FIRED -> timerFired(e, position);
      case EventKind.EVENT_RAISED -> eventRaised(e.name(), e.data().get("payload"), position);
      default -> {}
    }
    return true;
  }

  private void deliver(HistoryEvent e, int position) {
    BaseTask<?> task = tasks.get(e.seq());
    if (task == null) {
      orphan(e);
      return;
    }
    task.resolve(e, position);
  }

  private void timerFired(HistoryEvent e, int position) {
    BaseTask<?> task = tasks.get(e.seq());
    if (task == null) {
      orphan(e);
      return;
    }
    if (TimerPurpose.RETRY.equals(e.text("purpose")) && task instanceof ActivityTask<?> a) {
      a.retryFired(e.integer("retryNumber", a.retryNumber + 1));
      return;
    }
    if (TimerPurpose.RETRY.equals(e.text("purpose")) && task instanceof ChildTask<?> c) {
      c.retryFired(e.integer("retryNumber", c.retryNumber + 1));
      return;
    }
    task.resolve(e, position);
  }

  /**
   * Keeps a completion whose command the code has not issued yet; one whose number history has no
   * command for is a mismatch (docs/workflows.md §4.2 (c)).
   */
  private void orphan(HistoryEvent e) {
    if (!commands.containsKey(e.seq())) {
      mismatchAt(e, commandKindOf(e.kind()));
    }
    orphans.put(e.seq(), e);
  }

  private static String commandKindOf(String completionKind) {
    return switch (completionKind) {
      case EventKind.ACTIVITY_COMPLETED, EventKind.ACTIVITY_FAILED -> EventKind.ACTIVITY_SCHEDULED;
      case EventKind.CHILD_COMPLETED, EventKind.CHILD_FAILED -> EventKind.CHILD_SCHEDULED;
      default -> EventKind.TIMER_CREATED;
    };
  }

  private void eventRaised(String eventName, JsonNode payload, int position) {
    Deque<EventTask<?>> queue = waiters.get(eventName);
    if (queue != null && !queue.isEmpty()) {
      queue.poll().receive(payload, position);
      return;
    }
    buffered
        .computeIfAbsent(eventName, k -> new ArrayDeque<>())
        .add(new Buffered(payload, position));
  }

  /** Awaits {@code task}: advances through history until it is done, else suspends. */
  private void awaitDone(BaseTask<?> task) {
    enter();
    while (!task.isDone()) {
      if (!advance()) {
        suspendedAt = task.seq;
        suspend();
      }
    }
  }

  private void suspend() {
    suspended = true;
    throw new TurnSuspended(
        "turn suspended: a result is not in history yet (never catch TurnSuspended)");
  }

  private void enter() {
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException(
          "OrchestrationContext: called from thread \""
              + Thread.currentThread().getName()
              + "\"; only the orchestration's own thread may use it, during its turn");
    }
    if (mismatch != null) {
      throw new ReplaySignal(mismatch);
    }
    if (undecodable != null) {
      throw new Payloads.UndecodablePayload(undecodable);
    }
    if (suspended) {
      suspend();
    }
    if (continueRequest != null) {
      throw new ReplaySignal("continued as new");
    }
  }

  /** The next command number, matched against history's command of that number. */
  private long command(String kind, String name) {
    long seq = nextSeq++;
    HistoryEvent recordedCommand = commands.get(seq);
    if (recordedCommand != null
        && (!recordedCommand.kind().equals(kind) || !nameOf(recordedCommand).equals(name))) {
      String expected = recordedCommand.kind() + " " + nameOf(recordedCommand);
      String actual = kind + " " + name;
      mismatch = prefix(seq) + "history has " + expected + ", code issued " + actual;
      mismatchDetail = new Mismatch(recordedCommand.eventId(), seq, expected, actual);
      throw new ReplaySignal(mismatch);
    }
    return seq;
  }

  private boolean isNew(long seq) {
    return !commands.containsKey(seq);
  }

  private <T extends BaseTask<?>> T register(T task) {
    tasks.put(task.seq, task);
    HistoryEvent early = orphans.remove(task.seq);
    if (early != null) {
      task.resolve(early, spec.events().indexOf(early));
    }
    return task;
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
    return cursor < spec.newFrom();
  }

  @Override
  public Instant now() {
    enter();
    return now;
  }

  @Override
  public UUID newUuid() {
    enter();
    String seed = spec.instanceId() + "/" + spec.executionId() + "/" + uuidCounter++;
    return UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public Random random() {
    enter();
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
    enter();
    requireName("activity name", name);
    ActivityOptions o = options == null ? ActivityOptions.defaults() : options;
    long seq = command(EventKind.ACTIVITY_SCHEDULED, name);
    JsonNode inputNode;
    String queue;
    if (isNew(seq)) {
      inputNode = payloads.encode("activity " + name + " input", input);
      queue = o.queue();
      out.add(activityScheduled(seq, name, inputNode, queue, 0, o.timeout()));
    } else {
      HistoryEvent c = commands.get(seq);
      inputNode = c.data().get("input");
      queue = c.text("queue");
    }
    RetryPolicy retry = o.retry() == null ? RetryPolicy.none() : o.retry();
    return register(new ActivityTask<>(seq, name, inputNode, queue, o, retry, now, resultType));
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
    enter();
    requireName("orchestration name", name);
    SubOrchestrationOptions o = options == null ? SubOrchestrationOptions.defaults() : options;
    long seq = command(EventKind.CHILD_SCHEDULED, name);
    JsonNode inputNode;
    String childId;
    if (isNew(seq)) {
      inputNode = payloads.encode("sub-orchestration " + name + " input", input);
      childId = o.instanceId() != null ? o.instanceId() : spec.instanceId() + "::sub::" + seq;
      out.add(
          new NewEvent(
              EventKind.CHILD_SCHEDULED,
              seq,
              name,
              childScheduled(
                  seq, name, o.version(), childId, o.instanceId() != null, inputNode, 0)));
    } else {
      HistoryEvent c = commands.get(seq);
      inputNode = c.data().get("input");
      childId = c.text("instanceId");
    }
    RetryPolicy retry = o.retry() == null ? RetryPolicy.none() : o.retry();
    return register(
        new ChildTask<>(seq, name, o.version(), childId, inputNode, retry, now, resultType));
  }

  private static NewEvent activityScheduled(
      long seq, String name, JsonNode input, String queue, int retryNumber, Duration timeout) {
    ObjectNode data = JSON.objectNode();
    data.put("seq", seq);
    data.put("name", name);
    data.set("input", input);
    if (queue != null) {
      data.put("queue", queue);
    }
    data.put("retryNumber", retryNumber);
    if (timeout != null) {
      data.put("timeoutMs", timeout.toMillis());
    }
    return new NewEvent(EventKind.ACTIVITY_SCHEDULED, seq, name, data);
  }

  private static ObjectNode childScheduled(
      long seq,
      String name,
      String version,
      String childId,
      boolean explicitId,
      JsonNode input,
      int retryNumber) {
    ObjectNode data = JSON.objectNode();
    data.put("seq", seq);
    data.put("name", name);
    if (version != null) {
      data.put("version", version);
    }
    data.put("instanceId", childId);
    data.put("explicitId", explicitId);
    data.set("input", input);
    if (retryNumber > 0) {
      data.put("retryNumber", retryNumber);
    }
    return data;
  }

  /** The RETRY timer of a retry policy, once per retry (history may have it already). */
  private void retryTimer(long seq, int next, Duration delay, String what) {
    if (recorded.add(retryKey(EventKind.TIMER_CREATED, seq, next))) {
      ObjectNode data = JSON.objectNode();
      data.put("seq", seq);
      data.put("fireAt", now.plus(delay).toString());
      data.put("purpose", TimerPurpose.RETRY);
      data.put("retryNumber", next);
      data.put("activity", what);
      out.add(new NewEvent(EventKind.TIMER_CREATED, seq, TimerPurpose.RETRY, data));
    }
  }

  @Override
  public Task<Void> createTimer(Duration delay) {
    enter();
    if (delay == null || delay.isNegative()) {
      throw new IllegalArgumentException("timer delay: must be zero or positive, was " + delay);
    }
    return createTimer(now.plus(delay));
  }

  @Override
  public Task<Void> createTimer(Instant fireAt) {
    enter();
    if (fireAt == null) {
      throw new IllegalArgumentException("timer fireAt: is required");
    }
    long seq = timer(fireAt, TimerPurpose.USER, null);
    return register(new TimerTask(seq));
  }

  private long timer(Instant fireAt, String purpose, String eventName) {
    long seq = command(EventKind.TIMER_CREATED, purpose);
    if (isNew(seq)) {
      ObjectNode data = JSON.objectNode();
      data.put("seq", seq);
      data.put("fireAt", fireAt.toString());
      data.put("purpose", purpose);
      if (eventName != null) {
        data.put("event", eventName);
      }
      out.add(new NewEvent(EventKind.TIMER_CREATED, seq, purpose, data));
    }
    return seq;
  }

  @Override
  public <T> Task<T> waitForEvent(String name, Class<T> type) {
    enter();
    requireName("event name", name);
    EventTask<T> task = new EventTask<>(name, type, null);
    take(task);
    return task;
  }

  @Override
  public <T> Task<Optional<T>> waitForEvent(String name, Class<T> type, Duration timeout) {
    enter();
    requireName("event name", name);
    if (timeout == null || timeout.isNegative()) {
      throw new IllegalArgumentException("event timeout: must be zero or positive, was " + timeout);
    }
    EventTask<T> event = new EventTask<>(name, type, null);
    if (!take(event)) {
      long seq = timer(now.plus(timeout), TimerPurpose.EVENT_TIMEOUT, name);
      event.timeoutSeq = seq;
      register(new TimeoutTask(seq, event));
    }
    return new OptionalEventTask<>(event);
  }

  /** Gives {@code task} the first buffered event of its name, or queues it as a waiter. */
  private boolean take(EventTask<?> task) {
    Deque<Buffered> queue = buffered.get(task.eventName);
    if (queue != null && !queue.isEmpty()) {
      Buffered b = queue.poll();
      task.receive(b.payload(), b.position());
      return true;
    }
    waiters.computeIfAbsent(task.eventName, k -> new ArrayDeque<>()).add(task);
    return false;
  }

  @Override
  public <T> Task<List<T>> allOf(List<Task<T>> tasks) {
    enter();
    return new AllOfTask<>(List.copyOf(tasks));
  }

  @Override
  public Task<Task<?>> anyOf(List<? extends Task<?>> tasks) {
    enter();
    if (tasks.isEmpty()) {
      throw new IllegalArgumentException("anyOf: needs at least one task");
    }
    return new AnyOfTask(List.copyOf(tasks));
  }

  @Override
  public void setStatus(Object status) {
    enter();
    customStatus = payloads.encode("custom status", status);
  }

  @Override
  public boolean patched(String changeId) {
    enter();
    requireName("change id", changeId);
    HistoryEvent atNext = commands.get(nextSeq);
    if (atNext != null) {
      if (EventKind.PATCH_APPLIED.equals(atNext.kind())
          && changeId.equals(atNext.text("changeId"))) {
        nextSeq++;
        return true;
      }
      // The history went on without the marker: it was recorded before the change.
      return false;
    }
    long seq = nextSeq++;
    ObjectNode data = JSON.objectNode();
    data.put("seq", seq);
    data.put("changeId", changeId);
    out.add(new NewEvent(EventKind.PATCH_APPLIED, seq, changeId, data));
    return true;
  }

  @Override
  public void deprecatePatch(String changeId) {
    enter();
    HistoryEvent atNext = commands.get(nextSeq);
    if (atNext != null
        && EventKind.PATCH_APPLIED.equals(atNext.kind())
        && changeId.equals(atNext.text("changeId"))) {
      nextSeq++;
    }
  }

  @Override
  public <R> R continueAsNew(Object input) {
    return continueAsNew(null, input);
  }

  @Override
  public <R> R continueAsNew(String version, Object input) {
    enter();
    JsonNode inputNode = payloads.encode("continue-as-new input", input);
    continueRequest = new ContinueRequest(version, inputNode);
    throw new ReplaySignal("continued as new");
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
    return new HistorySize(cursor, bytesBefore[cursor]);
  }

  private static void requireName(String what, String value) {
    if (value == null || value.isBlank() || value.length() > 200) {
      throw new IllegalArgumentException(
          what + ": must be 1-200 characters, was \"" + value + "\"");
    }
  }

  private Logger replaySilent(Logger delegate) {
    return (Logger)
        Proxy.newProxyInstance(
            Logger.class.getClassLoader(),
            new Class<?>[] {Logger.class},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return method.invoke(delegate, args);
              }
              if (isReplaying()) {
                return method.getReturnType() == boolean.class ? Boolean.FALSE : null;
              }
              return method.invoke(delegate, args);
            });
  }

  // ---- tasks

  /** What every task shares: done or not, its value or failure, where in history it ended. */
  private abstract class BaseTask<T> implements Task<T> {
    final Long seq;
    boolean done;
    T value;
    RuntimeException failure;
    int position;

    BaseTask(Long seq) {
      this.seq = seq;
    }

    /** Takes the history event that ends this task. */
    abstract void resolve(HistoryEvent e, int position);

    final void succeed(T result, int at) {
      done = true;
      value = result;
      position = at;
    }

    final void fail(RuntimeException error, int at) {
      done = true;
      failure = error;
      position = at;
    }

    @Override
    public T await() {
      awaitDone(this);
      if (failure != null) {
        throw failure;
      }
      return value;
    }

    @Override
    public boolean isDone() {
      return done;
    }
  }

  private final class ActivityTask<O> extends BaseTask<O> {
    final String name;
    final JsonNode input;
    final String queue;
    final ActivityOptions options;
    final RetryPolicy retry;
    final Instant firstCalledAt;
    final Type resultType;
    int retryNumber;

    ActivityTask(
        long seq,
        String name,
        JsonNode input,
        String queue,
        ActivityOptions options,
        RetryPolicy retry,
        Instant firstCalledAt,
        Type resultType) {
      super(seq);
      this.name = name;
      this.input = input;
      this.queue = queue;
      this.options = options;
      this.retry = retry;
      this.firstCalledAt = firstCalledAt;
      this.resultType = resultType;
    }

    @Override
    @SuppressWarnings("unchecked")
    void resolve(HistoryEvent e, int at) {
      if (EventKind.ACTIVITY_COMPLETED.equals(e.kind())) {
        succeed((O) decode("activity " + name + " result", e.data().get("result"), resultType), at);
        return;
      }
      if (!EventKind.ACTIVITY_FAILED.equals(e.kind())) {
        mismatchAt(e, EventKind.ACTIVITY_SCHEDULED);
        return;
      }
      WorkflowFailure f = recordedFailure(e);
      int failedTry = e.integer("retryNumber", retryNumber);
      Optional<Duration> delay =
          retry.nextDelay(failedTry, f, Duration.between(firstCalledAt, now));
      if (delay.isEmpty()) {
        fail(new ActivityFailedException(f), at);
        return;
      }
      retryTimer(seq, failedTry + 1, delay.get(), name);
    }

    void retryFired(int number) {
      retryNumber = number;
      if (recorded.add(retryKey(EventKind.ACTIVITY_SCHEDULED, seq, number))) {
        out.add(activityScheduled(seq, name, input, queue, number, options.timeout()));
      }
    }
  }

  private final class ChildTask<O> extends BaseTask<O> {
    final String name;
    final String version;
    final String firstId;
    final JsonNode input;
    final RetryPolicy retry;
    final Instant firstCalledAt;
    final Type resultType;
    int retryNumber;

    ChildTask(
        long seq,
        String name,
        String version,
        String firstId,
        JsonNode input,
        RetryPolicy retry,
        Instant firstCalledAt,
        Type resultType) {
      super(seq);
      this.name = name;
      this.version = version;
      this.firstId = firstId;
      this.input = input;
      this.retry = retry;
      this.firstCalledAt = firstCalledAt;
      this.resultType = resultType;
    }

    @Override
    @SuppressWarnings("unchecked")
    void resolve(HistoryEvent e, int at) {
      if (EventKind.CHILD_COMPLETED.equals(e.kind())) {
        succeed((O) decode("sub-orchestration result", e.data().get("result"), resultType), at);
      } else if (EventKind.CHILD_FAILED.equals(e.kind())) {
        WorkflowFailure f = recordedFailure(e);
        int failedTry = e.integer("retryNumber", retryNumber);
        // A child's own failure is final for that instance, but a retry is a new instance: the
        // policy decides, except for a termination or a taken id, which a retry cannot change.
        boolean retryable =
            !WorkflowFailure.TERMINATED.equals(f.reason())
                && !WorkflowFailure.INSTANCE_EXISTS.equals(f.reason());
        Optional<Duration> delay =
            retry.nextDelay(
                failedTry, f.withRetryable(retryable), Duration.between(firstCalledAt, now));
        if (delay.isEmpty()) {
          fail(new SubOrchestrationFailedException(f), at);
          return;
        }
        retryTimer(seq, failedTry + 1, delay.get(), name);
      } else {
        mismatchAt(e, EventKind.CHILD_SCHEDULED);
      }
    }

    /** A retry's child: a new instance, since the failed one keeps its story. */
    void retryFired(int number) {
      retryNumber = number;
      if (recorded.add(retryKey(EventKind.CHILD_SCHEDULED, seq, number))) {
        out.add(
            new NewEvent(
                EventKind.CHILD_SCHEDULED,
                seq,
                name,
                childScheduled(
                    seq, name, version, firstId + "::retry::" + number, false, input, number)));
      }
    }
  }

  private final class TimerTask extends BaseTask<Void> {
    TimerTask(long seq) {
      super(seq);
    }

    @Override
    void resolve(HistoryEvent e, int at) {
      if (EventKind.TIMER_FIRED.equals(e.kind())) {
        succeed(null, at);
      } else {
        mismatchAt(e, EventKind.TIMER_CREATED);
      }
    }
  }

  /** The timeout timer of a {@code waitForEvent}: firing first ends the wait empty. */
  private final class TimeoutTask extends BaseTask<Void> {
    final EventTask<?> event;

    TimeoutTask(long seq, EventTask<?> event) {
      super(seq);
      this.event = event;
    }

    @Override
    void resolve(HistoryEvent e, int at) {
      if (!EventKind.TIMER_FIRED.equals(e.kind())) {
        mismatchAt(e, EventKind.TIMER_CREATED);
        return;
      }
      succeed(null, at);
      if (!event.done) {
        Deque<EventTask<?>> queue = waiters.get(event.eventName);
        if (queue != null) {
          queue.remove(event);
        }
        event.timedOut = true;
        event.succeed(null, at);
      }
    }
  }

  private final class EventTask<T> extends BaseTask<T> {
    final String eventName;
    final Class<T> type;
    Long timeoutSeq;
    boolean timedOut;

    EventTask(String eventName, Class<T> type, Long seq) {
      super(seq);
      this.eventName = eventName;
      this.type = type;
    }

    @Override
    void resolve(HistoryEvent e, int at) {
      throw new IllegalStateException("events are delivered by name, not by number");
    }

    void receive(JsonNode payload, int at) {
      succeed(type.cast(decode("event " + eventName + " payload", payload, type)), at);
      if (timeoutSeq != null && at >= spec.newFrom()) {
        // The event beat its timeout in this turn: the timer's row can go.
        lostTimers.add(timeoutSeq);
      }
    }
  }

  /** The optional view of an event wait with a timeout. */
  private final class OptionalEventTask<T> implements Task<Optional<T>>, Positioned {
    final EventTask<T> event;

    OptionalEventTask(EventTask<T> event) {
      this.event = event;
    }

    @Override
    public Optional<T> await() {
      event.await();
      return event.timedOut ? Optional.empty() : Optional.ofNullable(event.value);
    }

    @Override
    public boolean isDone() {
      return event.isDone();
    }

    @Override
    public int position() {
      return event.position;
    }
  }

  /** A task that knows where in history it ended (for {@code anyOf}). */
  private interface Positioned {
    int position();
  }

  private final class AllOfTask<T> implements Task<List<T>> {
    final List<Task<T>> parts;

    AllOfTask(List<Task<T>> parts) {
      this.parts = parts;
    }

    @Override
    public List<T> await() {
      enter();
      while (!isDone()) {
        if (!advance()) {
          suspend();
        }
      }
      List<T> results = new ArrayList<>();
      List<WorkflowException> failures = new ArrayList<>();
      WorkflowException first = null;
      for (Task<T> part : parts) {
        try {
          results.add(part.await());
          failures.add(null);
        } catch (WorkflowException e) {
          results.add(null);
          failures.add(e);
          first = first == null ? e : first;
        }
      }
      if (first != null) {
        throw new AllOfFailedException(first.failure(), failures);
      }
      return results;
    }

    @Override
    public boolean isDone() {
      return parts.stream().allMatch(Task::isDone);
    }
  }

  private final class AnyOfTask implements Task<Task<?>> {
    final List<? extends Task<?>> parts;

    AnyOfTask(List<? extends Task<?>> parts) {
      this.parts = parts;
    }

    @Override
    public Task<?> await() {
      enter();
      while (!isDone()) {
        if (!advance()) {
          suspend();
        }
      }
      Task<?> winner = null;
      int best = Integer.MAX_VALUE;
      for (Task<?> part : parts) {
        if (part.isDone() && positionOf(part) < best) {
          best = positionOf(part);
          winner = part;
        }
      }
      return winner;
    }

    @Override
    public boolean isDone() {
      return parts.stream().anyMatch(Task::isDone);
    }
  }

  private static int positionOf(Task<?> task) {
    if (task instanceof OrchestrationRun.BaseTask<?> b) {
      return b.position;
    }
    if (task instanceof Positioned p) {
      return p.position();
    }
    return Integer.MAX_VALUE - 1;
  }

  private void mismatchAt(HistoryEvent e, String expectedCommand) {
    HistoryEvent c = commands.get(e.seq());
    mismatch =
        "nondeterminism: "
            + spec.instanceId()
            + " execution "
            + spec.executionId()
            + " event "
            + e.eventId()
            + ": "
            + e.kind()
            + " refers to command #"
            + e.seq()
            + ", history has "
            + (c == null ? "no such command" : c.kind() + " " + nameOf(c))
            + " (expected "
            + expectedCommand
            + ")";
    mismatchDetail =
        new Mismatch(
            e.eventId(),
            e.seq(),
            e.kind() + " for " + (c == null ? "no command" : c.kind() + " " + nameOf(c)),
            expectedCommand + " #" + e.seq());
    throw new ReplaySignal(mismatch);
  }

  /**
   * A recorded payload decoded as {@code type}; one that no longer decodes is recorded before it is
   * thrown, so code that catches {@code Throwable} cannot hide it.
   */
  private Object decode(String what, JsonNode node, Type type) {
    try {
      return payloads.decode(what, node, type);
    } catch (Payloads.UndecodablePayload u) {
      undecodable = u.getMessage();
      throw u;
    }
  }

  /** The recorded failure of {@code e}; one that is not a failure object is undecodable. */
  private WorkflowFailure recordedFailure(HistoryEvent e) {
    try {
      return FailureCodec.read(payloads, e.data().get("failure"));
    } catch (IllegalArgumentException bad) {
      undecodable = "event " + e.eventId() + " (" + e.kind() + "): " + bad.getMessage();
      throw new Payloads.UndecodablePayload(undecodable);
    }
  }

  private static String retryKey(String kind, long seq, int retryNumber) {
    return kind + ":" + seq + ":" + retryNumber;
  }

  /** Default queue for activities whose options and registration name none. */
  static final String DEFAULT_QUEUE = WorkflowDefaults.ACTIVITY_QUEUE;
}
