package io.redrive.workflow.runtime;

import io.redrive.Redrive;
import io.redrive.store.workflow.ActivityResult;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.KnownHistory;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.trace.MessageTracing;
import io.redrive.trace.TraceScope;
import io.redrive.trace.TurnTrace;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.replay.Payloads;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Runs one leased turn to its end (docs/workflows.md, "What each case does"): the {@link
 * TurnDecider} decides it without touching the store, the {@link TurnCommitter} commits or abandons
 * what was decided. A decision that throws (a bug of ours, an inbox row that cannot be read, code
 * throwing an {@link Error} such as a LinkageError mid-deploy) abandons the turn, counted: poison
 * if it persists. Thread-safe: one call per leased turn, any number at once.
 */
public final class TurnProcessor {
  private final Clock clock;
  private final RuntimeSettings settings;
  private final TurnDecider decider;
  private final TurnCommitter committer;
  private final LocalActivities locals;
  private final WorkflowStore store;
  private final WorkflowMetrics metrics;
  private final HistoryCache cache;
  private final MessageTracing tracing;

  /** A processor whose turns are not traced. */
  public TurnProcessor(
      WorkflowStore store,
      Clock clock,
      WorkflowRegistry registry,
      OrchestrationCode.Lookup code,
      Payloads payloads,
      RuntimeSettings settings,
      WorkflowMetrics metrics) {
    this(store, clock, registry, code, payloads, settings, metrics, MessageTracing.NONE);
  }

  /**
   * A processor on {@code redrive}'s clock that tells its tracing of each turn (docs/tracing.md,
   * "Workflows").
   */
  public TurnProcessor(
      WorkflowStore store,
      Redrive redrive,
      WorkflowRegistry registry,
      OrchestrationCode.Lookup code,
      Payloads payloads,
      RuntimeSettings settings,
      WorkflowMetrics metrics) {
    this(store, redrive.clock(), registry, code, payloads, settings, metrics, redrive.tracing());
  }

  private TurnProcessor(
      WorkflowStore store,
      Clock clock,
      WorkflowRegistry registry,
      OrchestrationCode.Lookup code,
      Payloads payloads,
      RuntimeSettings settings,
      WorkflowMetrics metrics,
      MessageTracing tracing) {
    this.clock = clock;
    this.tracing = tracing;
    this.settings = settings;
    this.decider =
        new TurnDecider(
            settings,
            registry,
            code,
            payloads,
            clock,
            LoggerFactory.getLogger("io.redrive.workflow.orchestration"));
    this.store = store;
    this.metrics = metrics;
    this.cache = new HistoryCache(settings.historyCacheSize(), metrics);
    this.committer = new TurnCommitter(store, clock, settings, metrics, cache);
    this.locals = new LocalActivities(registry, payloads.mapper(), settings, clock);
  }

  /**
   * Decides and carries out the turn; never throws for a lost lease. While a decision leaves local
   * activities to run, it is committed as a checkpoint (the lease kept), they run here, and their
   * results are decided in memory; the chain stops when a decision has none left, the instance
   * leaves the execution, or half of {@code maxTurnDuration} has passed (then the last commit
   * leaves them to the next lease, which any node may take at once).
   */
  public void process(TurnLease leased) {
    TurnTrace trace = tracing.turn(TurnTracing.turnOf(leased));
    try (TraceScope scope = trace.activate()) {
      chain(leased, trace);
    } finally {
      trace.end();
    }
  }

  private void chain(TurnLease leased, TurnTrace trace) {
    long chainStart = System.nanoTime();
    long chainLimit = settings.maxTurnDuration().dividedBy(2).toNanos();
    long turnLimit = settings.maxTurnDuration().multipliedBy(9).dividedBy(10).toNanos();
    TurnLease lease = leased;
    TurnChain chain = new TurnChain(lease.instance().id());
    while (true) {
      // Stored times are milliseconds: a turn's time must read back as it was used.
      Instant started = now();
      Attempt attempt = decide(lease, started);
      if (attempt.doubtful() && cache.served(lease)) {
        // Correctness first: a turn that could not use the node's copy of the history is decided
        // again from the stored rows before anything is counted or written.
        metrics.historyCache("fallback");
        cache.forget(lease.instance().id());
        try {
          lease = withStoredHistory(lease);
        } catch (RuntimeException e) {
          committer.nodeError(lease, e, started);
          return;
        }
        attempt = decide(lease, started);
      }
      if (attempt.failure != null) {
        trace.failed(attempt.failure.getClass().getSimpleName(), attempt.failure.getMessage());
        committer.nodeError(lease, attempt.failure, started);
        return;
      }
      if (attempt.decision instanceof Decision.Abandon a) {
        trace.failed(a.outcome(), a.message());
      }
      if (!(attempt.decision instanceof Decision.Commit c)) {
        committer.carryOut(lease, attempt.decision, started);
        return;
      }
      List<LocalRun> runs = LocalRuns.toRun(c.locals());
      long elapsed = System.nanoTime() - chainStart;
      // Started only while they can end well before the poller's TURN_TIMEOUT (9/10 of it).
      boolean runsLocals =
          !runs.isEmpty()
              && elapsed < chainLimit
              && elapsed + locals.longest(runs).toNanos() < turnLimit;
      CommitTurnParams params =
          chain.prepare(
              TurnTracing.carry(c.params(), trace.headers()),
              runsLocals ? settings.turnLeaseTimeout() : null);
      Decision.Commit prepared =
          new Decision.Commit(params, c.outcome(), c.lostTimers(), c.observations(), c.locals());
      if (!runsLocals) {
        committer.carryOut(lease, prepared, started);
        return;
      }
      if (!committer.checkpoint(lease, prepared, started)) {
        return;
      }
      List<ActivityResult> results;
      try {
        results = locals.run(lease.instance().id(), params.instance().executionId(), runs, trace);
      } catch (RuntimeException e) {
        // Interrupted: the turn timed out (already abandoned) or the node stops (refunded).
        if (!Thread.currentThread().isInterrupted()) {
          committer.nodeError(lease, e, now());
        }
        return;
      }
      lease = TurnChain.next(lease, params, runs, results, now());
    }
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  /** The node's history cache, offered to the store with each lease. */
  public KnownHistory knownHistory() {
    return settings.historyCacheSize() == 0 ? KnownHistory.NONE : cache;
  }

  /** Test hook: replaces the rows this node holds for {@code instanceId}. */
  public void replaceCachedHistory(String instanceId, List<HistoryRow> rows) {
    cache.replace(instanceId, rows);
  }

  private Attempt decide(TurnLease lease, Instant started) {
    try {
      return new Attempt(decider.decide(lease, started), null);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      return new Attempt(null, e);
    }
  }

  private TurnLease withStoredHistory(TurnLease lease) {
    return new TurnLease(
        lease.instance(),
        lease.token(),
        lease.attempt(),
        lease.batch(),
        store.readHistory(lease.instance().id(), lease.instance().executionId()),
        lease.turns());
  }

  /** A decision, or what deciding threw. */
  private record Attempt(Decision decision, Throwable failure) {
    /** A failure, an unreadable history or a replay that did not match: maybe the copy's fault. */
    boolean doubtful() {
      return failure != null
          || decision instanceof Decision.Abandon a
              && (WorkflowFailure.NONDETERMINISM.equals(a.outcome())
                  || "HISTORY_UNREADABLE".equals(a.outcome()));
    }
  }

  /**
   * Gives a running turn's try back (a graceful stop of this node): the lease is cleared, the
   * counter goes down by one and a REFUNDED turn row says so; the turn's own commit, if it still
   * comes, finds its lease gone and writes nothing.
   */
  public void refund(TurnLease lease) {
    committer.refund(lease);
  }

  /** Abandons a turn that ran past {@code maxTurnDuration} (counted). */
  public void abandonTimedOut(TurnLease lease, Instant started) {
    committer.carryOut(
        lease,
        new Decision.Abandon(
            Duration.ofSeconds(1),
            "TURN_TIMEOUT",
            "TURN_TIMEOUT",
            "turn ran longer than " + settings.maxTurnDuration()),
        started);
  }
}
