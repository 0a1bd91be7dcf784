package io.redrive.workflow.runtime;

import io.redrive.engine.DeliveryRules;
import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.TurnLease;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.HistoryUnreadableException;
import io.redrive.workflow.history.InboxMessage;
import io.redrive.workflow.history.InboxMessage.LocalCrash;
import io.redrive.workflow.history.InboxMessage.Terminate;
import io.redrive.workflow.replay.OrchestrationRun;
import io.redrive.workflow.replay.Payloads;
import io.redrive.workflow.replay.RunResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * Decides a leased turn (docs/workflows.md, "What each case does"), in this order: late rows of an
 * ended instance, termination, the crash-loop breaker, poison, an unreadable history, unregistered
 * code, a system failure in the batch, then the replay of the code. Pure: it reads nothing but the
 * lease and reaches no store; the only clock it reads is the one it is given (for activity message
 * ids); what it would count or log comes back as {@link Observation}s. Thread-safe: one call per
 * leased turn, any number at once.
 */
final class TurnDecider {
  private static final Duration UNREADABLE_DELAY = Duration.ofSeconds(1);

  private final RuntimeSettings settings;
  private final WorkflowRegistry registry;
  private final OrchestrationCode.Lookup code;
  private final Payloads payloads;
  private final Logger codeLog;
  private final TurnOpening opening;
  private final TurnEnding ending;
  private final Poisoning poisoning;
  private final Termination termination;
  private final LocalPlacement placement;

  TurnDecider(
      RuntimeSettings settings,
      WorkflowRegistry registry,
      OrchestrationCode.Lookup code,
      Payloads payloads,
      Clock clock,
      Logger codeLog) {
    this.settings = settings;
    this.registry = registry;
    this.code = code;
    this.payloads = payloads;
    this.codeLog = codeLog;
    this.opening = new TurnOpening(settings, payloads);
    this.ending =
        new TurnEnding(settings, payloads, new TurnEffects(registry, payloads, clock), clock);
    this.poisoning = new Poisoning(settings, registry, payloads, opening, ending);
    this.termination = new Termination(registry, payloads, opening, ending);
    this.placement = new LocalPlacement(registry, settings);
  }

  /**
   * The decision for {@code lease}, at {@code now} (the turn's time, in milliseconds).
   *
   * @throws RuntimeException a bug of ours or an inbox row it cannot read: the caller abandons the
   *     turn (NODE_ERROR, counted)
   * @throws Error what the orchestration code threw that is no exception (idem)
   */
  Decision decide(TurnLease lease, Instant now) {
    InstanceRow instance = lease.instance();
    List<HistoryEvent> stored = new ArrayList<>();
    String unreadable = null;
    try {
      for (var row : lease.history()) {
        stored.add(HistoryEvent.parse(row, payloads.mapper()));
      }
    } catch (HistoryUnreadableException e) {
      unreadable = e.getMessage();
    }
    stored = HistoryEvent.withoutVoided(stored);
    if (instance.status().terminal()) {
      return dropLateRows(lease, now);
    }
    TurnBatch batch = TurnBatch.of(lease.batch());
    // A termination runs no user code, so it goes before poison: what the operator asked for wins.
    Terminate terminate = batch.first(Terminate.class);
    if (terminate != null) {
      return termination.terminate(
          lease, batch, unreadable == null ? stored : null, terminate, now);
    }
    // Crashes while local activities were pending are theirs (counted and poisoned by the queue
    // rules as their attempts), not the turn's.
    List<LocalRun> pending =
        unreadable == null ? LocalRuns.pending(stored, LocalRuns.none()) : List.of();
    int localCrashes = pending.isEmpty() ? 0 : LocalRuns.crashes(lease.turns()).size();
    // One poison rule for messages, turns and activities: DeliveryRules. The turn's counter
    // already counts this lease, so the tries before it are one fewer.
    List<String> crashed = pending.isEmpty() ? Poisoning.crashedNodes(lease) : List.of();
    if (DeliveryRules.isCrashLoop(crashed, settings.maxCrashes())) {
      return poisoning.poison(lease, batch, stored, null, crashed, now);
    }
    if (DeliveryRules.onLease(lease.attempt() - 1 - localCrashes, settings.maxAttempts(), null, now)
        == DeliveryRules.LeaseVerdict.POISON) {
      return poisoning.poison(lease, batch, stored, unreadable, null, now);
    }
    if (unreadable != null) {
      return new Decision.Abandon(
          UNREADABLE_DELAY, "HISTORY_UNREADABLE", "HISTORY_UNREADABLE", unreadable);
    }
    requireReadable(batch, "START", "CONTINUE");
    TurnExecution execution = TurnExecution.of(instance, stored, batch, registry, payloads);
    if (execution == null) {
      return dropLateRows(lease, now);
    }
    Optional<OrchestrationCode> found =
        execution.version == null ? Optional.empty() : code.find(execution.name, execution.version);
    if (found.isEmpty()) {
      return unregistered(lease, execution);
    }
    for (LocalRun r : pending) {
      if (!placement.canRun(r.name())) {
        return unregisteredLocal(lease, r);
      }
    }
    Map<String, List<LocalCrash>> charged =
        LocalRuns.charged(pending, batch.messages(), lease.turns());
    return run(lease, batch, execution, found.get(), stored, charged, now);
  }

  private Decision run(
      TurnLease lease,
      TurnBatch batch,
      TurnExecution execution,
      OrchestrationCode code,
      List<HistoryEvent> stored,
      Map<String, List<LocalCrash>> localCrashes,
      Instant now) {
    InstanceRow instance = lease.instance();
    requireReadable(batch);
    TurnDraft draft = opening.open(lease, execution, stored, now);
    draft.storedEvents = stored;
    draft.localCrashes = localCrashes;
    int storedEvents = execution.isNew ? 0 : stored.size();
    InboxEvents inbox = new InboxEvents(instance.id(), execution, stored, settings.maxAttempts());
    inbox.convert(batch, draft);
    List<Observation> notes = new ArrayList<>();
    notes.add(new Observation.StaleResults(inbox.stale));
    if (inbox.activityPoisoned) {
      notes.add(new Observation.Poisoned("activity"));
    }
    if (inbox.systemFailure != null) {
      return ending.finish(
          lease, execution, storedEvents, draft, null, inbox.systemFailure, List.of(), notes, now);
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
                storedEvents,
                settings.maxHistoryEvents(),
                settings.maxHistoryBytes(),
                placement),
            code.code(),
            code.inputType(),
            payloads,
            codeLog);
    RunResult result = run.run();
    if (run.swallowedSuspension()) {
      notes.add(
          new Observation.SwallowedSuspension(instance.id(), execution.name, execution.version));
    }
    if (result instanceof RunResult.Bounced b) {
      notes.add(new Observation.Nondeterminism(execution.name, execution.version));
      notes.add(
          new Observation.Log(
              Level.WARN,
              "Orchestration replay failed ({}), abandoning with {}s backoff (will poison in {} more"
                  + " attempts): {} (instance {}, {}@{}, node {})",
              b.reason(),
              seconds(backoff(lease)),
              remaining(lease),
              b.message(),
              instance.id(),
              execution.name,
              execution.version,
              settings.nodeId()));
      return new Decision.Abandon(
          backoff(lease), WorkflowFailure.NONDETERMINISM, b.reason(), b.message(), notes);
    }
    List<Long> lostTimers =
        result instanceof RunResult.Suspended ? run.lostTimers() : List.<Long>of();
    return ending.finish(
        lease, execution, storedEvents, draft, result, null, lostTimers, notes, now);
  }

  /** Fails the turn (NODE_ERROR, counted) on a row of the batch it cannot read. */
  private static void requireReadable(TurnBatch batch, String... kinds) {
    for (var m : batch.messages()) {
      if (m instanceof InboxMessage.Unreadable u
          && (kinds.length == 0 || List.of(kinds).contains(u.kind()))) {
        throw new IllegalArgumentException(
            "inbox row " + u.seq() + " (" + u.kind() + "): " + u.error());
      }
    }
  }

  private Decision dropLateRows(TurnLease lease, Instant now) {
    InstanceRow i = lease.instance();
    List<Observation> notes =
        List.of(
            new Observation.StaleResults(lease.batch().size()),
            new Observation.Log(
                Level.DEBUG,
                "Dropping {} late inbox rows of instance {}",
                lease.batch().size(),
                i.id()));
    InstanceUpdate update =
        new InstanceUpdate(
            i.status() == Status.PENDING ? Status.RUNNING : i.status(),
            i.executionId(),
            i.version(),
            i.input(),
            i.output(),
            i.failure(),
            i.customStatus());
    return ending.commit(lease, update, opening.append(lease, now), "STALE", List.of(), notes);
  }

  private Decision unregistered(TurnLease lease, TurnExecution execution) {
    Duration delay = backoff(lease);
    String message =
        "orchestration "
            + execution.name
            + "@"
            + (execution.version == null ? "(no version)" : execution.version)
            + " is not registered on node "
            + settings.nodeId();
    List<Observation> notes =
        List.of(
            new Observation.Unregistered(execution.name),
            new Observation.Log(
                Level.WARN,
                "Orchestration not registered, abandoning with {}s backoff (will poison in {} more"
                    + " attempts) (instance {}, name {}, version {}, node {})",
                seconds(delay),
                remaining(lease),
                lease.instance().id(),
                execution.name,
                execution.version,
                settings.nodeId()));
    return new Decision.Abandon(
        delay, "UNREGISTERED", "UNREGISTERED_ORCHESTRATION", message, notes);
  }

  /**
   * A local activity this node cannot run is pending (another node placed it): the turn bounces
   * with the unregistered backoff, counted, until a node that can run it takes it, or poison.
   */
  private Decision unregisteredLocal(TurnLease lease, LocalRun r) {
    Duration delay = backoff(lease);
    String message =
        "local activity "
            + r.name()
            + "#"
            + r.seq()
            + " is not registered on node "
            + settings.nodeId()
            + " (or the node does not run activities)";
    List<Observation> notes =
        List.of(
            new Observation.Log(
                Level.WARN,
                "{}, abandoning with {}s backoff (will poison in {} more attempts) (instance {})",
                message,
                seconds(delay),
                remaining(lease),
                lease.instance().id()));
    return new Decision.Abandon(delay, "UNREGISTERED", "UNREGISTERED_ACTIVITY", message, notes);
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
}
