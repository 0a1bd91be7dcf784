package io.redrive.workflow.runtime;

import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.replay.Payloads;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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

  public TurnProcessor(
      WorkflowStore store,
      Clock clock,
      WorkflowRegistry registry,
      OrchestrationCode.Lookup code,
      Payloads payloads,
      RuntimeSettings settings,
      WorkflowMetrics metrics) {
    this.clock = clock;
    this.settings = settings;
    this.decider =
        new TurnDecider(
            settings,
            registry,
            code,
            payloads,
            clock,
            LoggerFactory.getLogger("io.redrive.workflow.orchestration"));
    this.committer = new TurnCommitter(store, clock, settings, metrics);
  }

  /** Decides and carries out the turn; never throws for a lost lease. */
  public void process(TurnLease lease) {
    // Stored times are milliseconds: a turn's time must read back as it was used.
    Instant started = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Decision decision;
    try {
      decision = decider.decide(lease, started);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      committer.nodeError(lease, e, started);
      return;
    }
    committer.carryOut(lease, decision, started);
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
