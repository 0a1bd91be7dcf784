package io.redrive.workflow.runtime;

import io.redrive.error.StoreException;
import io.redrive.error.TurnLostException;
import io.redrive.store.workflow.AbandonTurnParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries a decision out against the store: commits (three quick retries of a transient failure,
 * then a counted COMMIT_FAILED abandon), abandons, refunds, and reports what the decision observed
 * (metrics, logs). The only part of a turn that writes. Thread-safe: entered by the turn pool's
 * threads, one call per leased turn, and by the poller's threads for refunds and timeouts.
 */
final class TurnCommitter {
  static final Logger LOG = LoggerFactory.getLogger("io.redrive.workflow.runtime");
  private static final Duration NODE_ERROR_DELAY = Duration.ofSeconds(1);
  private static final long[] COMMIT_RETRY_MS = {10, 20, 40};

  private final WorkflowStore store;
  private final Clock clock;
  private final RuntimeSettings settings;
  private final WorkflowMetrics metrics;
  private final HistoryCache cache;
  private final Set<String> warnedSwallowers = ConcurrentHashMap.newKeySet();

  TurnCommitter(
      WorkflowStore store,
      Clock clock,
      RuntimeSettings settings,
      WorkflowMetrics metrics,
      HistoryCache cache) {
    this.cache = cache;
    this.store = store;
    this.clock = clock;
    this.settings = settings;
    this.metrics = metrics;
  }

  /** Carries {@code decision} out for the turn {@code lease} that began at {@code started}. */
  void carryOut(TurnLease lease, Decision decision, Instant started) {
    report(decision.observations());
    String name = lease.instance().name();
    if (decision instanceof Decision.Commit c) {
      if (commit(lease, withLostTimers(c))) {
        metrics.turn(name, c.outcome(), Duration.between(started, clock.instant()));
      }
      return;
    }
    Decision.Abandon a = (Decision.Abandon) decision;
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

  /**
   * Commits {@code c} as a checkpoint that keeps the turn's lease (its {@code params} say so); true
   * when it committed. A lost lease or a failed commit (then abandoned, counted) is false.
   */
  boolean checkpoint(TurnLease lease, Decision.Commit c, Instant started) {
    report(c.observations());
    if (!commit(lease, withLostTimers(c))) {
      return false;
    }
    metrics.turn(
        lease.instance().name(), "CHECKPOINTED", Duration.between(started, clock.instant()));
    return true;
  }

  /** Abandons a turn that failed with {@code e} while it was decided (counted, NODE_ERROR). */
  void nodeError(TurnLease lease, Throwable e, Instant started) {
    cache.forget(lease.instance().id());
    LOG.warn(
        "Orchestration turn failed with {} on node {}, abandoning (instance {}, attempt {})",
        e,
        settings.nodeId(),
        lease.instance().id(),
        lease.attempt(),
        e);
    carryOut(
        lease,
        new Decision.Abandon(
            NODE_ERROR_DELAY, "NODE_ERROR", e.getClass().getSimpleName(), e.toString()),
        started);
  }

  /** Gives a running turn's try back (a graceful stop): cleared, counter down by one, REFUNDED. */
  void refund(TurnLease lease) {
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

  /**
   * The commit with the inbox rows of its lost timeout timers (not visible yet, so not in the
   * batch) added to its deletes; a terminal commit clears the whole inbox anyway.
   */
  private CommitTurnParams withLostTimers(Decision.Commit c) {
    CommitTurnParams p = c.params();
    if (c.lostTimers().isEmpty()) {
      return p;
    }
    int executionId = p.instance().executionId();
    Set<Long> deletes = new LinkedHashSet<>(p.inboxDeletes());
    for (InboxRow row : store.readInbox(p.instanceId())) {
      if ("TIMER_FIRED".equals(row.kind())
          && row.refSeq() != null
          && c.lostTimers().contains(row.refSeq())
          && (row.executionId() == null || row.executionId() == executionId)) {
        deletes.add(row.seq());
      }
    }
    return new CommitTurnParams(
        p.instanceId(),
        p.token(),
        p.instance(),
        p.executions(),
        p.history(),
        new ArrayList<>(deletes),
        p.inboxInserts(),
        p.children(),
        p.activities(),
        p.now(),
        p.keepLease(),
        p.inboxDeleteKeys());
  }

  private boolean commit(TurnLease lease, CommitTurnParams decided) {
    // The instance sticks to this node while the node keeps its history for the next turn.
    CommitTurnParams params =
        decided.stickingTo(
            settings.sticky() && cache.keeps(lease, decided) ? settings.nodeId() : null);
    for (int i = 0; ; i++) {
      try {
        store.commitTurn(params);
        cache.committed(lease, params);
        return true;
      } catch (TurnLostException e) {
        cache.forget(lease.instance().id());
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
              new Decision.Abandon(
                  NODE_ERROR_DELAY, "COMMIT_FAILED", "COMMIT_FAILED", e.getMessage()),
              clock.instant());
          return false;
        }
        sleep(COMMIT_RETRY_MS[i]);
      }
    }
  }

  private void report(List<Observation> observations) {
    for (Observation o : observations) {
      if (o instanceof Observation.Poisoned p) {
        metrics.poisoned(p.level());
      } else if (o instanceof Observation.Unregistered u) {
        metrics.unregistered("orchestration", u.name());
      } else if (o instanceof Observation.Nondeterminism n) {
        metrics.nondeterminism(n.name(), n.version());
      } else if (o instanceof Observation.StaleResults s) {
        metrics.staleResults(s.count());
      } else if (o instanceof Observation.HistoryEvents h) {
        metrics.historyEvents(h.count());
      } else if (o instanceof Observation.Log l) {
        LOG.atLevel(l.level()).log(l.format(), l.args());
      } else if (o instanceof Observation.SwallowedSuspension s) {
        warnSwallowed(s);
      }
    }
  }

  private void warnSwallowed(Observation.SwallowedSuspension s) {
    if (!warnedSwallowers.add(s.instanceId())) {
      return;
    }
    if (warnedSwallowers.size() > 10_000) {
      warnedSwallowers.clear();
    }
    LOG.warn(
        "Orchestration code caught the runtime's suspension signal (TurnSuspended) and went on;"
            + " the turn suspended anyway and the code's result was ignored. Never catch"
            + " Throwable or Error in orchestration code (instance {}, {}@{})",
        s.instanceId(),
        s.name(),
        s.version());
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
