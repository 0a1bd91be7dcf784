package io.redrive.workflow.runtime;

import io.redrive.store.workflow.CommitTurnParams;
import java.time.Duration;
import java.util.List;

/**
 * What the decider made of a turn: a commit or an abandon, with what the committer is to count and
 * log about it. Plain data, so a decision can be checked without a store.
 */
sealed interface Decision {
  List<Observation> observations();

  /**
   * Commit the turn.
   *
   * @param outcome the turn metric's outcome (COMMITTED, POISONED, TERMINATED, STALE)
   * @param lostTimers event-timeout timers of {@code params}' execution whose wait ended: their
   *     inbox rows (not due yet, so not in the batch) are deleted with the commit
   * @param locals local activities waiting for a result after this commit, which the turn runs next
   *     (docs/workflows.md, "Local and queued activities"); empty for most commits
   */
  record Commit(
      CommitTurnParams params,
      String outcome,
      List<Long> lostTimers,
      List<Observation> observations,
      List<LocalRun> locals)
      implements Decision {
    public Commit {
      lostTimers = List.copyOf(lostTimers);
      observations = List.copyOf(observations);
      locals = List.copyOf(locals);
    }

    Commit(
        CommitTurnParams params,
        String outcome,
        List<Long> lostTimers,
        List<Observation> observations) {
      this(params, outcome, lostTimers, observations, List.of());
    }
  }

  /**
   * Give the turn back, counted, to be leased again after {@code delay}.
   *
   * @param outcome the turn row's outcome (UNREGISTERED, NONDETERMINISM, ...)
   */
  record Abandon(
      Duration delay, String outcome, String reason, String message, List<Observation> observations)
      implements Decision {
    public Abandon {
      observations = List.copyOf(observations);
    }

    Abandon(Duration delay, String outcome, String reason, String message) {
      this(delay, outcome, reason, message, List.of());
    }
  }
}
