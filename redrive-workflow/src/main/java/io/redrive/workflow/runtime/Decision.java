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
   */
  record Commit(
      CommitTurnParams params,
      String outcome,
      List<Long> lostTimers,
      List<Observation> observations)
      implements Decision {
    public Commit {
      lostTimers = List.copyOf(lostTimers);
      observations = List.copyOf(observations);
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
