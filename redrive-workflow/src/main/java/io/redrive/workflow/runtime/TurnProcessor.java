package io.redrive.workflow.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.error.StoreException;
import io.redrive.error.TurnLostException;
import io.redrive.message.MessageIds;
import io.redrive.message.NewMessage;
import io.redrive.store.AbandonTurnParams;
import io.redrive.store.CommitTurnParams;
import io.redrive.store.CommitTurnParams.ActivityStart;
import io.redrive.store.CommitTurnParams.ChildStart;
import io.redrive.store.CommitTurnParams.InstanceUpdate;
import io.redrive.store.CommitTurnParams.NewInboxRow;
import io.redrive.store.EnqueueParams;
import io.redrive.store.ExecutionRow;
import io.redrive.store.HistoryRow;
import io.redrive.store.InboxRow;
import io.redrive.store.InstanceRow;
import io.redrive.store.InstanceRow.Status;
import io.redrive.store.TurnLease;
import io.redrive.store.TurnRow;
import io.redrive.store.WorkflowStore;
import io.redrive.workflow.OrchestrationContext.ParentRef;
import io.redrive.workflow.OrchestrationDefinition;
import io.redrive.workflow.WorkflowDefaults;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.replay.EventKind;
import io.redrive.workflow.replay.FailureCodec;
import io.redrive.workflow.replay.HistoryEvent;
import io.redrive.workflow.replay.HistoryUnreadableException;
import io.redrive.workflow.replay.NewEvent;
import io.redrive.workflow.replay.OrchestrationRun;
import io.redrive.workflow.replay.Payloads;
import io.redrive.workflow.replay.RunResult;
import io.redrive.workflow.replay.TimerPurpose;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one leased turn to its end (docs/workflows.md, "What each case does"): checks the turn
 * counter before anything else, resolves the code, turns the batch into history events, replays the
 * orchestration and commits what it decided, or abandons the turn with the right backoff.
 * Thread-safe: one call per leased turn, any number at once.
 */
public final class TurnProcessor {
  private static final Logger LOG = LoggerFactory.getLogger("io.redrive.workflow.runtime");
  private static final Logger CODE_LOG =
      LoggerFactory.getLogger("io.redrive.workflow.orchestration");
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final Duration NODE_ERROR_DELAY = Duration.ofSeconds(1);
  private static final Duration UNREADABLE_DELAY = Duration.ofSeconds(1);
  private static final long[] COMMIT_RETRY_MS = {10, 20, 40};
  private static final String UNRESOLVED = "unresolved";

  private final WorkflowStore store;
  private final Clock clock;
  private final WorkflowRegistry registry;
  private final Payloads payloads;
  private final RuntimeSettings settings;
  private final WorkflowMetrics metrics;
  private final java.util.Set<String> warnedSwallowers =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  public TurnProcessor(
      WorkflowStore store,
      Clock clock,
      WorkflowRegistry registry,
      Payloads payloads,
      RuntimeSettings settings,
      WorkflowMetrics metrics) {
    this.store = store;
    this.clock = clock;
    this.registry = registry;
    this.payloads = payloads;
    this.settings = settings;
    this.metrics = metrics;
  }

  /** What a turn decided: a commit, or an abandon. */
  sealed interface Decision {}

  record Commit(CommitTurnParams params, String outcome) implements Decision {}

  record Abandon(Duration delay, String outcome, String reason, String message)
      implements Decision {}

  /** Decides and carries out the turn; never throws for a lost lease. */
  public void process(TurnLease lease) {
    // Stored times are milliseconds: a turn's time must read back as it was used.
    Instant started = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    Decision decision;
    try {
      decision = decide(lease, started);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      // A bug of ours, a store failure while deciding, or code throwing an Error (a LinkageError
      // mid-deploy): the try counts and the instance waits; poison if it persists.
      decision =
          new Abandon(NODE_ERROR_DELAY, "NODE_ERROR", e.getClass().getSimpleName(), e.toString());
      LOG.warn(
          "Orchestration turn failed with {} on node {}, abandoning (instance {}, attempt {})",
          e,
          settings.nodeId(),
          lease.instance().id(),
          lease.attempt(),
          e);
    }
    carryOut(lease, decision, started);
  }

  /**
   * Gives a running turn's try back (a graceful stop of this node): the lease is cleared, the
   * counter goes down by one and a REFUNDED turn row says so; the turn's own commit, if it still
   * comes, finds its lease gone and writes nothing.
   */
  public void refund(TurnLease lease) {
    try {
      store.abandonTurn(
          new AbandonTurnParams(
              lease.instance().id(),
              lease.token(),
              Duration.ZERO,
              true,
              "REFUNDED",
              "SHUTDOWN",
              "node " + settings.nodeId() + " stopped while the turn ran",
              clock.instant()));
    } catch (RuntimeException e) {
      LOG.warn("Refunding the turn of instance {} failed: {}", lease.instance().id(), e.toString());
    }
  }

  /** Abandons a turn that ran past {@code maxTurnDuration} (counted). */
  public void abandonTimedOut(TurnLease lease, Instant started) {
    carryOut(
        lease,
        new Abandon(
            UNREADABLE_DELAY,
            "TURN_TIMEOUT",
            "TURN_TIMEOUT",
            "turn ran longer than " + settings.maxTurnDuration()),
        started);
  }

  private void carryOut(TurnLease lease, Decision decision, Instant started) {
    String name = lease.instance().name();
    if (decision instanceof Commit c) {
      if (commit(lease, c.params())) {
        metrics.turn(name, c.outcome(), Duration.between(started, clock.instant()));
      }
      return;
    }
    Abandon a = (Abandon) decision;
    try {
      store.abandonTurn(
          new AbandonTurnParams(
              lease.instance().id(),
              lease.token(),
              a.delay(),
              false,
              a.outcome(),
              a.reason(),
              a.message(),
              clock.instant()));
      metrics.turn(name, a.outcome(), Duration.between(started, clock.instant()));
    } catch (TurnLostException e) {
      LOG.warn("Turn of instance {} lost its lease before it was abandoned", lease.instance().id());
    }
  }

  private boolean commit(TurnLease lease, CommitTurnParams params) {
    for (int i = 0; ; i++) {
      try {
        store.commitTurn(params);
        return true;
      } catch (TurnLostException e) {
        LOG.warn(
            "Turn of instance {} lost its lease (another node took over or it ran out); its"
                + " work is dropped and will run again",
            lease.instance().id());
        return false;
      } catch (StoreException e) {
        if (!e.transientFailure() || i >= COMMIT_RETRY_MS.length) {
          LOG.warn(
              "Commit of the turn of instance {} failed: {}", lease.instance().id(), e.toString());
          carryOut(
              lease,
              new Abandon(NODE_ERROR_DELAY, "COMMIT_FAILED", "COMMIT_FAILED", e.getMessage()),
              clock.instant());
          return false;
        }
        sleep(COMMIT_RETRY_MS[i]);
      }
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- deciding

  Decision decide(TurnLease lease, Instant now) {
    InstanceRow instance = lease.instance();
    List<HistoryEvent> stored = new ArrayList<>();
    String unreadable = null;
    try {
      for (HistoryRow row : lease.history()) {
        stored.add(HistoryEvent.parse(row, payloads.mapper()));
      }
    } catch (HistoryUnreadableException e) {
      unreadable = e.getMessage();
    }
    stored = HistoryEvent.withoutVoided(stored);
    if (instance.status().terminal()) {
      return dropLateRows(lease, now);
    }
    // A termination runs no user code, so it goes before poison: what the operator asked for wins.
    InboxRow terminate = first(lease.batch(), "TERMINATE");
    if (terminate != null) {
      return terminate(lease, unreadable == null ? stored : null, terminate, now);
    }
    List<String> crashed = crashedNodes(lease);
    if (settings.maxCrashes() > 0 && crashed.size() >= settings.maxCrashes()) {
      return poison(lease, stored, null, crashed, now);
    }
    if (lease.attempt() > settings.maxAttempts()) {
      return poison(lease, stored, unreadable, null, now);
    }
    if (unreadable != null) {
      return new Abandon(UNREADABLE_DELAY, "HISTORY_UNREADABLE", "HISTORY_UNREADABLE", unreadable);
    }
    Execution execution = execution(lease, stored);
    if (execution == null) {
      return dropLateRows(lease, now);
    }
    Optional<OrchestrationDefinition> code =
        execution.version == null
            ? Optional.empty()
            : registry.orchestration(execution.name, execution.version);
    if (code.isEmpty()) {
      return unregistered(lease, execution);
    }
    TurnDraft draft = draft(lease, execution, stored, now);
    int newFrom = execution.isNew ? 0 : stored.size();
    Batch batch = convert(lease, execution, stored, draft);
    if (batch.systemFailure != null) {
      return finish(lease, execution, stored, draft, null, batch.systemFailure, null, now);
    }
    List<HistoryEvent> events = new ArrayList<>(execution.isNew ? List.of() : stored);
    events.addAll(draft.events);
    OrchestrationRun run =
        new OrchestrationRun(
            new OrchestrationRun.Spec(
                instance.id(),
                execution.id,
                execution.name,
                execution.version,
                execution.parent,
                execution.input,
                execution.firstSeq,
                execution.carried,
                events,
                newFrom,
                settings.maxHistoryEvents(),
                settings.maxHistoryBytes()),
            code.get().code(),
            code.get().inputType(),
            payloads,
            CODE_LOG);
    RunResult result = run.run();
    if (!run.lostTimers().isEmpty() && result instanceof RunResult.Suspended) {
      cancelTimers(instance.id(), execution.id, run.lostTimers(), draft);
    }
    if (run.swallowedSuspension() && warnedSwallowers.add(instance.id())) {
      if (warnedSwallowers.size() > 10_000) {
        warnedSwallowers.clear();
      }
      LOG.warn(
          "Orchestration code caught the runtime's suspension signal (TurnSuspended) and went on;"
              + " the turn suspended anyway and the code's result was ignored. Never catch"
              + " Throwable or Error in orchestration code (instance {}, {}@{})",
          instance.id(),
          execution.name,
          execution.version);
    }
    if (result instanceof RunResult.Bounced b) {
      metrics.nondeterminism(execution.name, execution.version);
      LOG.warn(
          "Orchestration replay failed ({}), abandoning with {}s backoff (will poison in {} more"
              + " attempts): {} (instance {}, {}@{}, node {})",
          b.reason(),
          seconds(backoff(lease)),
          remaining(lease),
          b.message(),
          instance.id(),
          execution.name,
          execution.version,
          settings.nodeId());
      return new Abandon(backoff(lease), WorkflowFailure.NONDETERMINISM, b.reason(), b.message());
    }
    return finish(lease, execution, stored, draft, result, null, batch, now);
  }

  /**
   * Adds the inbox rows of {@code timers} (not visible yet, so not in the batch) to the turn's
   * deletes; a terminal commit clears the whole inbox anyway.
   */
  private void cancelTimers(
      String instanceId, int executionId, List<Long> timers, TurnDraft draft) {
    for (InboxRow row : store.readInbox(instanceId)) {
      if ("TIMER_FIRED".equals(row.kind())
          && row.refSeq() != null
          && timers.contains(row.refSeq())
          && (row.executionId() == null || row.executionId() == executionId)) {
        draft.cancelled.add(row.seq());
      }
    }
  }

  private Decision dropLateRows(TurnLease lease, Instant now) {
    InstanceRow i = lease.instance();
    metrics.staleResults(lease.batch().size());
    LOG.debug("Dropping {} late inbox rows of instance {}", lease.batch().size(), i.id());
    return commit(
        lease,
        new InstanceUpdate(
            i.status() == Status.PENDING ? Status.RUNNING : i.status(),
            i.executionId(),
            i.version(),
            i.input(),
            i.output(),
            i.failure(),
            i.customStatus()),
        new TurnDraft(lease.instance().executionId(), 0, 0, now, payloads),
        "STALE");
  }

  /** The execution a turn runs, with what its start says. */
  private static final class Execution {
    int id;
    String name;
    String version;
    String requestedVersion;
    JsonNode input;
    long firstSeq = 1;
    List<JsonNode> carried = List.of();
    ParentRef parent;
    boolean isNew;
    Instant startedAt;
  }

  /** The execution of this turn: the stored one, or a new one from a START or CONTINUE row. */
  private Execution execution(TurnLease lease, List<HistoryEvent> stored) {
    InstanceRow i = lease.instance();
    Execution e = new Execution();
    e.name = i.name();
    if (i.parentId() != null) {
      e.parent =
          new ParentRef(
              i.parentId(),
              i.parentExecution() == null ? 1 : i.parentExecution(),
              i.parentSeq() == null ? 0 : i.parentSeq());
    }
    if (stored.isEmpty()) {
      InboxRow start = first(lease.batch(), "START");
      e.id = i.executionId();
      e.isNew = true;
      e.requestedVersion = i.requestedVersion();
      e.input = payloads.parse(start != null ? start.data() : i.input());
    } else if (EventKind.CONTINUED_AS_NEW.equals(stored.get(stored.size() - 1).kind())) {
      InboxRow next = first(lease.batch(), "CONTINUE");
      if (next == null) {
        return null;
      }
      JsonNode data = payloads.parse(next.data());
      e.id = i.executionId() + 1;
      e.isNew = true;
      e.requestedVersion = data.hasNonNull("version") ? data.get("version").asText() : null;
      e.input = data.get("input");
      e.firstSeq = data.path("firstSeq").asLong(1);
      List<JsonNode> carried = new ArrayList<>();
      data.path("carriedEvents").forEach(carried::add);
      e.carried = carried;
    } else {
      HistoryEvent started = stored.get(0);
      e.id = i.executionId();
      e.version = i.version() != null ? i.version() : started.text("version");
      e.requestedVersion = i.requestedVersion();
      if (UNRESOLVED.equals(e.version)) {
        // Poisoned before any code was found, then retried by an operator: resolve it now.
        e.version =
            e.requestedVersion != null
                ? e.requestedVersion
                : registry.defaultVersion(e.name).orElse(null);
      }
      e.input = started.data().get("input");
      e.firstSeq = started.data().path("firstSeq").asLong(1);
      List<JsonNode> carried = new ArrayList<>();
      started.data().path("carriedEvents").forEach(carried::add);
      e.carried = carried;
      e.startedAt = started.at();
      return e;
    }
    e.version =
        e.requestedVersion != null
            ? e.requestedVersion
            : registry.defaultVersion(e.name).orElse(null);
    return e;
  }

  private Decision unregistered(TurnLease lease, Execution execution) {
    metrics.unregistered("orchestration", execution.name);
    Duration delay = backoff(lease);
    String message =
        "orchestration "
            + execution.name
            + "@"
            + (execution.version == null ? "(no version)" : execution.version)
            + " is not registered on node "
            + settings.nodeId();
    LOG.warn(
        "Orchestration not registered, abandoning with {}s backoff (will poison in {} more"
            + " attempts) (instance {}, name {}, version {}, node {})",
        seconds(delay),
        remaining(lease),
        lease.instance().id(),
        execution.name,
        execution.version,
        settings.nodeId());
    return new Abandon(delay, "UNREGISTERED", "UNREGISTERED_ORCHESTRATION", message);
  }

  private Duration backoff(TurnLease lease) {
    return settings.unregisteredBackoff().delayAfter(lease.attempt());
  }

  private int remaining(TurnLease lease) {
    return Math.max(0, settings.maxAttempts() - lease.attempt());
  }

  private static String seconds(Duration d) {
    // Test and tuning backoffs are milliseconds; one decimal would print them as 0.0.
    return String.format(Locale.ROOT, d.toMillis() < 100 ? "%.3f" : "%.1f", d.toMillis() / 1000.0);
  }

  private TurnDraft draft(
      TurnLease lease, Execution execution, List<HistoryEvent> stored, Instant now) {
    int lastEventId =
        execution.isNew
            ? 0
            : lease.history().stream().mapToInt(HistoryRow::eventId).max().orElse(0);
    int turn =
        execution.isNew
            ? 1
            : (int) stored.stream().filter(e -> EventKind.TURN_STARTED.equals(e.kind())).count()
                + 1;
    TurnDraft draft = new TurnDraft(execution.id, lastEventId, turn, now, payloads);
    if (execution.isNew) {
      draft.add(
          EventKind.ORCHESTRATION_STARTED,
          null,
          execution.name,
          startedData(lease.instance().id(), execution));
      execution.startedAt = now;
    }
    ObjectNode t = JSON.objectNode();
    t.put("turn", turn);
    t.put("node", settings.nodeId());
    if (settings.buildId() != null) {
      t.put("build", settings.buildId());
    }
    t.put("attempt", lease.attempt());
    draft.add(EventKind.TURN_STARTED, null, null, t);
    return draft;
  }

  private ObjectNode startedData(String instanceId, Execution e) {
    ObjectNode s = JSON.objectNode();
    s.put("instanceId", instanceId);
    s.put("name", e.name);
    s.put("version", e.version == null ? UNRESOLVED : e.version);
    s.set("input", e.input == null ? JSON.nullNode() : e.input);
    if (e.parent != null) {
      ObjectNode p = s.putObject("parent");
      p.put("instanceId", e.parent.instanceId());
      p.put("executionId", e.parent.executionId());
      p.put("seq", e.parent.seq());
    }
    s.put("firstSeq", e.firstSeq);
    ArrayNode carried = s.putArray("carriedEvents");
    e.carried.forEach(carried::add);
    return s;
  }

  /** The batch as history events; a system failure among them stops the turn's code. */
  private static final class Batch {
    WorkflowFailure systemFailure;
    int stale;
  }

  private Batch convert(
      TurnLease lease, Execution execution, List<HistoryEvent> stored, TurnDraft draft) {
    Batch batch = new Batch();
    Map<Long, HistoryEvent> scheduled = new HashMap<>();
    Map<Long, Integer> retries = new HashMap<>();
    Map<String, Boolean> ended = new HashMap<>();
    if (!execution.isNew) {
      for (HistoryEvent e : stored) {
        if (e.seq() == null) {
          continue;
        }
        switch (e.kind()) {
          case EventKind.ACTIVITY_SCHEDULED, EventKind.CHILD_SCHEDULED -> {
            // The latest scheduling of the command: a retry's carries its number (and child id).
            HistoryEvent before = scheduled.get(e.seq());
            if (before == null || e.integer("retryNumber", 0) >= before.integer("retryNumber", 0)) {
              scheduled.put(e.seq(), e);
            }
            retries.merge(e.seq(), e.integer("retryNumber", 0), Math::max);
          }
          case EventKind.TIMER_CREATED -> scheduled.putIfAbsent(e.seq(), e);
          case EventKind.ACTIVITY_COMPLETED,
              EventKind.ACTIVITY_FAILED,
              EventKind.CHILD_COMPLETED,
              EventKind.CHILD_FAILED ->
              ended.put(
                  e.kind().substring(0, 5) + e.seq() + ":" + e.integer("retryNumber", 0), true);
          case EventKind.TIMER_FIRED ->
              ended.put("TIMER" + e.seq() + ":" + e.integer("retryNumber", 0), true);
          default -> {}
        }
      }
    }
    String id = lease.instance().id();
    for (InboxRow row : lease.batch()) {
      if (batch.systemFailure != null) {
        break;
      }
      switch (row.kind()) {
        case "START", "CONTINUE", "TERMINATE" -> {}
        case "EVENT_RAISED" -> {
          ObjectNode d = JSON.objectNode();
          d.put("name", row.name());
          d.set("payload", payloads.parse(row.data()));
          draft.add(EventKind.EVENT_RAISED, null, row.name(), d);
        }
        default -> {
          boolean otherExecution = row.executionId() != null && row.executionId() != execution.id;
          HistoryEvent command = row.refSeq() == null ? null : scheduled.get(row.refSeq());
          if (otherExecution || command == null) {
            batch.stale++;
            continue;
          }
          batch.systemFailure =
              completion(id, execution, row, command, retries, ended, draft, batch);
        }
      }
    }
    metrics.staleResults(batch.stale);
    return batch;
  }

  /** One result row as its completion event; returns a system failure it carries, if any. */
  private WorkflowFailure completion(
      String instanceId,
      Execution execution,
      InboxRow row,
      HistoryEvent command,
      Map<Long, Integer> retries,
      Map<String, Boolean> ended,
      TurnDraft draft,
      Batch batch) {
    long seq = row.refSeq();
    JsonNode data = payloads.parse(row.data());
    switch (row.kind()) {
      case "ACTIVITY_RESULT" -> {
        if (!EventKind.ACTIVITY_SCHEDULED.equals(command.kind())) {
          batch.stale++;
          return null;
        }
        int retry = retries.getOrDefault(seq, 0);
        if (ended.putIfAbsent("ACTIV" + seq + ":" + retry, true) != null) {
          batch.stale++;
          return null;
        }
        String outcome = data.path("outcome").asText();
        ObjectNode d = JSON.objectNode();
        d.put("seq", seq);
        d.put("retryNumber", retry);
        d.put("messageId", data.path("messageId").asText());
        if ("COMPLETED".equals(outcome)) {
          d.set("result", data.has("result") ? data.get("result") : JSON.nullNode());
          d.set("attempts", data.path("attempts"));
          draft.add(EventKind.ACTIVITY_COMPLETED, seq, command.name(), d);
          return null;
        }
        WorkflowFailure failure = activityFailure(instanceId, execution, command, data, outcome);
        d.set("failure", FailureCodec.write(failure));
        d.set("attempts", data.path("attempts"));
        draft.add(EventKind.ACTIVITY_FAILED, seq, command.name(), d);
        if (failure.isSystem()) {
          metrics.poisoned("activity");
          return failure;
        }
        return null;
      }
      case "TIMER_FIRED" -> {
        int retry = data.path("retryNumber").asInt(0);
        if (ended.putIfAbsent("TIMER" + seq + ":" + retry, true) != null) {
          batch.stale++;
          return null;
        }
        ObjectNode d = JSON.objectNode();
        d.put("seq", seq);
        d.put("purpose", data.path("purpose").asText(TimerPurpose.USER));
        if (data.has("retryNumber")) {
          d.put("retryNumber", retry);
        }
        draft.add(EventKind.TIMER_FIRED, seq, row.name(), d);
        return null;
      }
      case "CHILD_RESULT" -> {
        int retry = retries.getOrDefault(seq, 0);
        if (!EventKind.CHILD_SCHEDULED.equals(command.kind())
            || ended.putIfAbsent("CHILD" + seq + ":" + retry, true) != null) {
          batch.stale++;
          return null;
        }
        ObjectNode d = JSON.objectNode();
        d.put("seq", seq);
        if (retry > 0) {
          d.put("retryNumber", retry);
        }
        if ("COMPLETED".equals(data.path("outcome").asText())) {
          d.set("result", data.has("result") ? data.get("result") : JSON.nullNode());
          draft.add(EventKind.CHILD_COMPLETED, seq, command.name(), d);
          return null;
        }
        WorkflowFailure failure = FailureCodec.read(data.get("failure"));
        if (failure.isSystem()) {
          failure = failure.passedThrough(command.text("instanceId"));
        }
        d.set("failure", FailureCodec.write(failure));
        draft.add(EventKind.CHILD_FAILED, seq, command.name(), d);
        return failure.isSystem() ? failure : null;
      }
      default -> {
        batch.stale++;
        return null;
      }
    }
  }

  /** A poisoned activity message's snapshot as JSON, or null when it is not JSON. */
  private JsonNode snapshotOf(String poisonedMessage) {
    try {
      return payloads.parse(poisonedMessage);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private WorkflowFailure activityFailure(
      String instanceId, Execution execution, HistoryEvent command, JsonNode data, String outcome) {
    JsonNode f = data.path("failure");
    long seq = command.seq();
    if ("POISONED".equals(outcome)) {
      int attempt = f.path("attempt").asInt(data.path("attempt").asInt());
      int maxAttempts = f.path("maxAttempts").asInt(settings.maxAttempts());
      String poisoned =
          f.hasNonNull("poisonedMessage") ? f.get("poisonedMessage").asText() : data.toString();
      JsonNode snapshot = f.hasNonNull("poisonedMessage") ? snapshotOf(poisoned) : null;
      if (snapshot != null && snapshot.path("crashedWorkers").isArray()) {
        // The queue's crash-loop breaker poisoned it (docs/workflows.md, "Crash-loop breaker").
        List<String> workers = new ArrayList<>();
        snapshot.get("crashedWorkers").forEach(w -> workers.add(w.asText()));
        return WorkflowFailure.crashLoopActivity(
            instanceId,
            execution.id,
            command.name(),
            seq,
            workers,
            attempt,
            maxAttempts,
            snapshot.path("maxCrashes").asInt(workers.size()),
            poisoned);
      }
      return WorkflowFailure.poisonedActivity(
          instanceId, execution.id, command.name(), seq, attempt, maxAttempts, poisoned);
    }
    String reason = f.path("reason").asText("EXPIRED".equals(outcome) ? "EXPIRED" : "UNKNOWN");
    String message = f.path("message").asText("");
    String display =
        "activity "
            + command.name()
            + "#"
            + seq
            + " failed: "
            + reason
            + (message.isEmpty() ? "" : " " + message);
    return new WorkflowFailure(
        reason,
        f.path("category").asText("application"),
        message,
        null,
        f.hasNonNull("stackTrace") ? f.get("stackTrace").asText() : null,
        f.path("retryable").asBoolean(false),
        f.hasNonNull("retryAfterMs") ? f.get("retryAfterMs").asLong() : null,
        f.hasNonNull("attempt") ? f.get("attempt").asInt() : null,
        f.hasNonNull("maxAttempts") ? f.get("maxAttempts").asInt() : null,
        null,
        instanceId,
        execution.id,
        command.name(),
        seq,
        null,
        List.of(),
        null,
        null,
        display);
  }

  // ---- ending

  /**
   * The commit of a turn that ran ({@code result}) or stopped at a system failure ({@code
   * systemFailure}).
   */
  private Decision finish(
      TurnLease lease,
      Execution execution,
      List<HistoryEvent> stored,
      TurnDraft draft,
      RunResult result,
      WorkflowFailure systemFailure,
      Batch batch,
      Instant now) {
    InstanceRow i = lease.instance();
    int storedEvents = execution.isNew ? 0 : stored.size();
    long storedBytes = execution.isNew ? 0 : i.historyBytes();
    int beforeCommands = draft.events.size();
    String customStatus =
        result != null && result.customStatus() != null
            ? payloads.text(result.customStatus())
            : i.customStatus();
    Status status = Status.RUNNING;
    String output = null;
    WorkflowFailure failure = systemFailure;
    if (failure != null) {
      draft.add(EventKind.ORCHESTRATION_FAILED, null, null, failed(failure));
      status = Status.FAILED;
    } else {
      for (NewEvent e : result.events()) {
        draft.add(e);
      }
      if (result instanceof RunResult.Completed c) {
        ObjectNode d = JSON.objectNode();
        d.set("output", c.output());
        draft.add(EventKind.ORCHESTRATION_COMPLETED, null, null, d);
        status = Status.COMPLETED;
        output = payloads.text(c.output());
      } else if (result instanceof RunResult.Failed f) {
        failure = f.failure();
        draft.add(EventKind.ORCHESTRATION_FAILED, null, null, failed(failure));
        status = Status.FAILED;
      } else if (result instanceof RunResult.ContinuedAsNew c) {
        ObjectNode d = JSON.objectNode();
        d.set("input", c.input());
        if (c.version() != null) {
          d.put("version", c.version());
        }
        draft.add(EventKind.CONTINUED_AS_NEW, null, null, d);
      }
      if (storedEvents + draft.events.size() > settings.maxHistoryEvents()
          || storedBytes + draft.bytes() > settings.maxHistoryBytes()) {
        // The limit replaces the turn's commands: nothing they scheduled is written.
        failure = historyLimit(i.id(), execution, storedEvents, storedBytes, draft);
        draft.truncate(beforeCommands);
        draft.add(EventKind.ORCHESTRATION_FAILED, null, null, failed(failure));
        status = Status.FAILED;
        output = null;
      } else {
        sideEffects(i, execution, draft, now);
      }
    }
    boolean continued = result instanceof RunResult.ContinuedAsNew;
    if (continued) {
      RunResult.ContinuedAsNew c = (RunResult.ContinuedAsNew) result;
      ObjectNode d = JSON.objectNode();
      d.set("input", c.input());
      if (c.version() != null) {
        d.put("version", c.version());
      }
      ArrayNode carried = d.putArray("carriedEvents");
      c.carriedEvents().forEach(carried::add);
      d.put("firstSeq", c.nextSeq());
      draft.inbox.add(
          new NewInboxRow(
              i.id(),
              null,
              "CONTINUE",
              null,
              execution.name,
              payloads.text(d),
              now,
              "continue:" + execution.id));
    }
    if (status.terminal()) {
      notifyParent(i, execution, status, output, failure, draft, now);
    }
    ExecutionRow.Status executionStatus =
        continued ? ExecutionRow.Status.CONTINUED : ExecutionRow.Status.valueOf(status.name());
    if (execution.isNew || status.terminal() || continued) {
      draft.executions.add(
          new ExecutionRow(
              execution.id,
              execution.name,
              execution.version,
              executionStatus,
              payloads.text(execution.input),
              output,
              execution.startedAt,
              status.terminal() || continued ? now : null,
              execution.firstSeq));
    }
    metrics.historyEvents(storedEvents + draft.events.size());
    String failureText = failure == null ? null : payloads.text(FailureCodec.write(failure));
    if (failure != null && failure.isSystem()) {
      LOG.error("{} (instance {})", failure.display(), i.id());
    }
    return commit(
        lease,
        new InstanceUpdate(
            status,
            execution.id,
            execution.version,
            payloads.text(execution.input),
            output,
            failureText,
            customStatus),
        draft,
        "COMMITTED");
  }

  /** The commit of {@code draft} with the instance as {@code update} says. */
  private Commit commit(TurnLease lease, InstanceUpdate update, TurnDraft draft, String outcome) {
    return new Commit(
        new CommitTurnParams(
            lease.instance().id(),
            lease.token(),
            update,
            draft.executions,
            draft.rows(),
            deletes(lease, draft),
            draft.inbox,
            draft.children,
            draft.activities,
            clock.instant()),
        outcome);
  }

  private WorkflowFailure historyLimit(
      String instanceId, Execution execution, int events, long bytes, TurnDraft draft) {
    String message =
        "history limit: execution "
            + execution.id
            + " of "
            + instanceId
            + " would hold "
            + (events + draft.events.size())
            + " events / "
            + (bytes + draft.bytes())
            + " bytes (max "
            + settings.maxHistoryEvents()
            + " events, "
            + settings.maxHistoryBytes()
            + " bytes); continue as new before the limit";
    return WorkflowFailure.of(
        WorkflowFailure.HISTORY_LIMIT, "configuration", message, instanceId, execution.id, message);
  }

  private static ObjectNode failed(WorkflowFailure failure) {
    ObjectNode d = JSON.objectNode();
    d.set("failure", FailureCodec.write(failure));
    return d;
  }

  /** The inbox rows, children and activity messages the turn's commands imply. */
  private void sideEffects(InstanceRow i, Execution execution, TurnDraft draft, Instant now) {
    for (HistoryEvent e : draft.events) {
      switch (e.kind()) {
        case EventKind.ACTIVITY_SCHEDULED -> {
          String name = e.name();
          int retry = e.integer("retryNumber", 0);
          String queue = e.text("queue");
          if (queue == null) {
            queue =
                registry.activity(name).map(r -> r.queue()).orElse(WorkflowDefaults.ACTIVITY_QUEUE);
          }
          Map<String, String> headers = new HashMap<>();
          headers.put(ActivityHeaders.INSTANCE, i.id());
          headers.put(ActivityHeaders.EXECUTION, String.valueOf(execution.id));
          headers.put(ActivityHeaders.ACTIVITY, String.valueOf(e.seq()));
          headers.put(ActivityHeaders.RETRY, String.valueOf(retry));
          if (e.data().hasNonNull("timeoutMs")) {
            headers.put(ActivityHeaders.TIMEOUT_MS, e.data().get("timeoutMs").asText());
          }
          NewMessage message =
              NewMessage.builder(queue, name)
                  .payload(payloads.text(e.data().get("input")))
                  .headers(headers)
                  .build();
          draft.activities.add(
              new ActivityStart(
                  new EnqueueParams.Entry(MessageIds.next(clock), message), e.seq(), name, retry));
        }
        case EventKind.TIMER_CREATED -> {
          ObjectNode d = JSON.objectNode();
          d.put("seq", e.seq());
          d.put("purpose", e.text("purpose"));
          if (e.data().has("retryNumber")) {
            d.put("retryNumber", e.integer("retryNumber", 0));
          }
          Instant fireAt = Instant.parse(e.text("fireAt"));
          draft.inbox.add(
              new NewInboxRow(
                  i.id(),
                  execution.id,
                  "TIMER_FIRED",
                  e.seq(),
                  e.text("purpose"),
                  payloads.text(d),
                  fireAt,
                  "timer:" + execution.id + ":" + e.seq() + ":" + e.integer("retryNumber", 0)));
        }
        case EventKind.CHILD_SCHEDULED -> {
          String childId = e.text("instanceId");
          ObjectNode conflict = JSON.objectNode();
          conflict.put("outcome", "FAILED");
          String message = "instance id " + childId + " is taken";
          conflict.set(
              "failure",
              FailureCodec.write(
                  WorkflowFailure.of(
                      WorkflowFailure.INSTANCE_EXISTS,
                      "application",
                      message,
                      childId,
                      null,
                      "sub-orchestration " + e.name() + ": " + message)));
          draft.children.add(
              new ChildStart(
                  childId,
                  e.name(),
                  e.text("version"),
                  payloads.text(e.data().get("input")),
                  e.seq(),
                  payloads.text(conflict)));
        }
        default -> {}
      }
    }
  }

  private void notifyParent(
      InstanceRow i,
      Execution execution,
      Status status,
      String output,
      WorkflowFailure failure,
      TurnDraft draft,
      Instant now) {
    if (i.parentId() == null || i.parentSeq() == null) {
      return;
    }
    ObjectNode d = JSON.objectNode();
    if (status == Status.COMPLETED) {
      d.put("outcome", "COMPLETED");
      d.set("result", payloads.parse(output));
    } else {
      d.put("outcome", status.name());
      d.set("failure", FailureCodec.write(failure));
    }
    draft.inbox.add(
        new NewInboxRow(
            i.parentId(),
            i.parentExecution(),
            "CHILD_RESULT",
            i.parentSeq(),
            execution.name,
            payloads.text(d),
            now,
            "child:" + i.parentSeq()));
  }

  // ---- poison and terminate

  /**
   * The distinct nodes whose lease on this batch ran out since the last commit, oldest first: each
   * is a node that died (or hung) running it (the crash-loop breaker of docs/workflows.md).
   */
  private static List<String> crashedNodes(TurnLease lease) {
    java.util.Set<String> nodes = new java.util.LinkedHashSet<>();
    for (TurnRow t : lease.turns()) {
      if ("LEASE_EXPIRED".equals(t.outcome()) && t.node() != null) {
        nodes.add(t.node());
      }
    }
    return new ArrayList<>(nodes);
  }

  private Decision poison(
      TurnLease lease,
      List<HistoryEvent> stored,
      String unreadable,
      List<String> crashed,
      Instant now) {
    InstanceRow i = lease.instance();
    metrics.poisoned("orchestration");
    String poisoned = poisonedMessage(lease);
    WorkflowFailure last = lastAttempt(lease);
    if (unreadable != null) {
      int lastId = lease.history().stream().mapToInt(HistoryRow::eventId).max().orElse(0);
      WorkflowFailure failure =
          WorkflowFailure.historyUnreadable(
              i.id(),
              i.executionId(),
              lease.attempt(),
              settings.maxAttempts(),
              unreadable,
              poisoned);
      TurnDraft draft = new TurnDraft(i.executionId(), lastId, 0, now, payloads);
      draft.add(EventKind.ORCHESTRATION_FAILED, null, null, failed(failure));
      Execution e = new Execution();
      e.id = i.executionId();
      e.name = i.name();
      e.version = i.version();
      e.input = payloads.parse(i.input());
      notifyParent(i, e, Status.FAILED, null, failure, draft, now);
      LOG.error("{} (instance {})", failure.display(), i.id());
      return commit(
          lease,
          new InstanceUpdate(
              Status.FAILED,
              i.executionId(),
              i.version(),
              i.input(),
              null,
              payloads.text(FailureCodec.write(failure)),
              i.customStatus()),
          draft,
          "POISONED");
    }
    Execution execution = execution(lease, stored);
    if (execution == null) {
      execution = new Execution();
      execution.id = i.executionId();
      execution.name = i.name();
      execution.version = i.version();
      execution.input = payloads.parse(i.input());
      execution.startedAt = stored.isEmpty() ? now : stored.get(0).at();
    }
    TurnDraft draft = draft(lease, execution, stored, now);
    WorkflowFailure failure =
        crashed != null
            ? WorkflowFailure.crashLoop(
                i.id(),
                execution.id,
                crashed,
                lease.attempt(),
                settings.maxCrashes(),
                poisoned,
                last)
            : WorkflowFailure.poisonedOrchestration(
                i.id(), execution.id, lease.attempt(), settings.maxAttempts(), poisoned, last);
    return finish(lease, execution, stored, draft, null, failure, null, now);
  }

  private String poisonedMessage(TurnLease lease) {
    ArrayNode rows = JSON.arrayNode();
    for (InboxRow r : lease.batch()) {
      ObjectNode n = rows.addObject();
      n.put("seq", r.seq());
      n.put("kind", r.kind());
      if (r.executionId() != null) {
        n.put("executionId", r.executionId());
      }
      if (r.refSeq() != null) {
        n.put("refSeq", r.refSeq());
      }
      if (r.name() != null) {
        n.put("name", r.name());
      }
      if (r.data() != null) {
        n.put("data", r.data());
      }
      n.put("visibleAt", r.visibleAt().toString());
    }
    ObjectNode n = JSON.objectNode();
    n.put("instanceId", lease.instance().id());
    n.put("attempt", lease.attempt());
    n.set("batch", rows);
    return payloads.text(n);
  }

  private static WorkflowFailure lastAttempt(TurnLease lease) {
    if (lease.turns().isEmpty()) {
      return null;
    }
    TurnRow t = lease.turns().get(lease.turns().size() - 1);
    String message = t.message() != null ? t.message() : t.outcome() + " on " + t.node();
    return new WorkflowFailure(
        t.outcome(),
        "nondeterminism".equalsIgnoreCase(t.outcome()) ? "nondeterminism" : "infrastructure",
        message,
        null,
        null,
        false,
        null,
        t.attempt(),
        null,
        null,
        lease.instance().id(),
        t.executionId(),
        null,
        null,
        null,
        List.of(),
        null,
        null,
        t.outcome() + (t.node() == null ? "" : " on " + t.node()) + ": " + message);
  }

  private Decision terminate(
      TurnLease lease, List<HistoryEvent> stored, InboxRow row, Instant now) {
    InstanceRow i = lease.instance();
    JsonNode data = payloads.parse(row.data());
    String reason = data.hasNonNull("reason") ? data.get("reason").asText() : "terminated";
    Execution execution = stored == null ? null : execution(lease, stored);
    if (execution == null) {
      execution = new Execution();
      execution.id = i.executionId();
      execution.name = i.name();
      execution.version = i.version();
      execution.input = payloads.parse(i.input());
      execution.startedAt = now;
    }
    if (execution.version == null) {
      execution.version = execution.requestedVersion;
    }
    List<HistoryEvent> history = stored == null ? List.of() : stored;
    TurnDraft draft;
    if (stored == null) {
      int lastId = lease.history().stream().mapToInt(HistoryRow::eventId).max().orElse(0);
      draft = new TurnDraft(i.executionId(), lastId, 0, now, payloads);
    } else {
      draft = draft(lease, execution, history, now);
    }
    ObjectNode d = JSON.objectNode();
    d.put("reason", reason);
    draft.add(EventKind.ORCHESTRATION_TERMINATED, null, null, d);
    // Running children end with their parent.
    Map<Long, String> running = new HashMap<>();
    for (HistoryEvent e : history) {
      if (EventKind.CHILD_SCHEDULED.equals(e.kind())) {
        running.put(e.seq(), e.text("instanceId"));
      } else if (EventKind.CHILD_COMPLETED.equals(e.kind())
          || EventKind.CHILD_FAILED.equals(e.kind())) {
        running.remove(e.seq());
      }
    }
    for (String child : running.values()) {
      ObjectNode r = JSON.objectNode();
      r.put("reason", "parent " + i.id() + " terminated: " + reason);
      draft.inbox.add(
          new NewInboxRow(
              child, null, "TERMINATE", null, null, payloads.text(r), now, "terminate"));
    }
    String message = "terminated: " + reason;
    WorkflowFailure failure =
        WorkflowFailure.of(
            WorkflowFailure.TERMINATED, "application", reason, i.id(), execution.id, message);
    notifyParent(i, execution, Status.TERMINATED, null, failure, draft, now);
    if (execution.isNew || stored != null) {
      draft.executions.add(
          new ExecutionRow(
              execution.id,
              execution.name,
              execution.version,
              ExecutionRow.Status.TERMINATED,
              payloads.text(execution.input),
              null,
              execution.startedAt == null ? now : execution.startedAt,
              now,
              execution.firstSeq));
    }
    return commit(
        lease,
        new InstanceUpdate(
            Status.TERMINATED,
            execution.id,
            execution.version,
            payloads.text(execution.input),
            null,
            payloads.text(FailureCodec.write(failure)),
            i.customStatus()),
        draft,
        "TERMINATED");
  }

  private static InboxRow first(List<InboxRow> batch, String kind) {
    for (InboxRow r : batch) {
      if (kind.equals(r.kind())) {
        return r;
      }
    }
    return null;
  }

  private static List<Long> deletes(TurnLease lease, TurnDraft draft) {
    java.util.Set<Long> seqs = new java.util.LinkedHashSet<>(seqs(lease.batch()));
    seqs.addAll(draft.cancelled);
    return new ArrayList<>(seqs);
  }

  private static List<Long> seqs(List<InboxRow> batch) {
    List<Long> seqs = new ArrayList<>(batch.size());
    for (InboxRow r : batch) {
      seqs.add(r.seq());
    }
    return seqs;
  }
}
