package io.redrive.whatif;

import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replays recorded stories under a candidate retry policy. Pure (no store, no clock); thread-safe.
 *
 * <p>The rule, per message, over the attempts recorded since its last reset (manual retry, redrive,
 * import): attempt k's outcome is the one recorded for attempt k, and so is its run time (lease to
 * settle); an attempt the record lacks (the message died earlier under the old policy) is
 * <em>assumed</em> to end as the last recorded attempt did. The first attempt starts when it was
 * recorded to; each later one starts after the previous one's run time plus the candidate's
 * backoff. A completed attempt completes the message; a failure that is not retryable kills it
 * whatever the policy; a lease expiry counts a crash on its worker (an assumed one on a new worker)
 * for the crash-loop breaker; a failure at {@code maxAttempts} kills it. Deadlines and operator
 * actions are not replayed: a message recorded dead for such a reason stays so ({@link
 * WhatIfEnd#DEAD_OTHER}).
 */
public final class PolicyWhatIf {
  private static final Set<Outcome> ATTEMPTS =
      Set.of(Outcome.COMPLETED, Outcome.FAILED, Outcome.LEASE_EXPIRED, Outcome.ABANDONED);
  private static final Set<Outcome> RESETS =
      Set.of(Outcome.RETRIED, Outcome.REDRIVEN, Outcome.IMPORTED);

  /** One message's end: how, when, and whether the replay assumed attempts. */
  record Ending(WhatIfEnd end, Instant at, boolean assumed) {}

  private PolicyWhatIf() {}

  /** Replays {@code stories} (dead or completed messages with their history) under {@code c}. */
  public static WhatIfReport replay(List<Message> stories, RetryCandidate c) {
    Map<WhatIfEnd, Integer> recorded = new EnumMap<>(WhatIfEnd.class);
    Map<WhatIfEnd, Integer> candidate = new EnumMap<>(WhatIfEnd.class);
    int replayed = 0;
    int skipped = 0;
    int newlyCompleted = 0;
    int newlyDead = 0;
    int assumed = 0;
    List<Duration> shifts = new ArrayList<>();
    for (Message m : stories) {
      List<HistoryEntry> attempts = attempts(m.history());
      if (attempts.isEmpty()) {
        skipped++;
        continue;
      }
      replayed++;
      Ending was = recorded(m, attempts);
      Ending now = was.end() == WhatIfEnd.DEAD_OTHER ? was : simulate(attempts, c);
      recorded.merge(was.end(), 1, Integer::sum);
      candidate.merge(now.end(), 1, Integer::sum);
      boolean wasDone = was.end() == WhatIfEnd.COMPLETED;
      boolean isDone = now.end() == WhatIfEnd.COMPLETED;
      if (wasDone && isDone) {
        shifts.add(Duration.between(was.at(), now.at()));
      } else if (isDone) {
        newlyCompleted++;
      } else if (wasDone) {
        newlyDead++;
      }
      if (now.assumed()) {
        assumed++;
      }
    }
    return new WhatIfReport(
        replayed, skipped, recorded, candidate, newlyCompleted, newlyDead, assumed, shift(shifts));
  }

  /** The attempt entries since the last reset, in attempt order. */
  static List<HistoryEntry> attempts(List<HistoryEntry> history) {
    List<HistoryEntry> out = new ArrayList<>();
    for (HistoryEntry e : history == null ? List.<HistoryEntry>of() : history) {
      if (RESETS.contains(e.outcome())) {
        out.clear();
      } else if (ATTEMPTS.contains(e.outcome())
          && e.attempt() >= 1
          && e.leasedAt() != null
          && e.settledAt() != null) {
        out.add(e);
      }
    }
    return out;
  }

  private static Ending recorded(Message m, List<HistoryEntry> attempts) {
    HistoryEntry last = attempts.get(attempts.size() - 1);
    if (m.state() == MessageState.COMPLETED || last.outcome() == Outcome.COMPLETED) {
      return new Ending(
          WhatIfEnd.COMPLETED, m.completedAt() != null ? m.completedAt() : last.settledAt(), false);
    }
    Instant at = m.deadAt() != null ? m.deadAt() : last.settledAt();
    if (!retryable(last)) {
      return new Ending(WhatIfEnd.DEAD_NOT_RETRYABLE, at, false);
    }
    if (m.deadReason() == FailureReason.POISON && last.outcome() == Outcome.LEASE_EXPIRED) {
      return new Ending(
          m.attempts() > m.maxAttempts() || attempts.size() >= m.maxAttempts()
              ? WhatIfEnd.DEAD_ATTEMPTS
              : WhatIfEnd.DEAD_CRASH_LOOP,
          at,
          false);
    }
    if (m.deadReason() == FailureReason.EXPIRED) {
      return new Ending(WhatIfEnd.DEAD_OTHER, at, false);
    }
    return new Ending(WhatIfEnd.DEAD_ATTEMPTS, at, false);
  }

  private static boolean retryable(HistoryEntry e) {
    return e.outcome() != Outcome.FAILED || e.failure() == null || e.failure().retryable();
  }

  static Ending simulate(List<HistoryEntry> attempts, RetryCandidate c) {
    Instant t = attempts.get(0).leasedAt();
    Set<String> crashed = new HashSet<>();
    boolean assumed = false;
    for (int k = 1; ; k++) {
      if (k > c.maxAttempts()) {
        return new Ending(WhatIfEnd.DEAD_ATTEMPTS, t, assumed);
      }
      boolean known = k <= attempts.size();
      assumed |= !known;
      HistoryEntry e = attempts.get(Math.min(k, attempts.size()) - 1);
      Instant end = t.plus(Duration.between(e.leasedAt(), e.settledAt()));
      if (e.outcome() == Outcome.COMPLETED) {
        return new Ending(WhatIfEnd.COMPLETED, end, assumed);
      }
      if (!retryable(e)) {
        return new Ending(WhatIfEnd.DEAD_NOT_RETRYABLE, end, assumed);
      }
      if (e.outcome() == Outcome.LEASE_EXPIRED) {
        crashed.add(known ? String.valueOf(e.worker()) : "assumed attempt " + k);
        if (c.maxCrashes() > 0 && crashed.size() >= c.maxCrashes()) {
          return new Ending(WhatIfEnd.DEAD_CRASH_LOOP, end, assumed);
        }
      }
      if (k >= c.maxAttempts()) {
        return new Ending(WhatIfEnd.DEAD_ATTEMPTS, end, assumed);
      }
      t = end.plus(c.backoff().delayAfter(k));
    }
  }

  private static WhatIfReport.Shift shift(List<Duration> shifts) {
    if (shifts.isEmpty()) {
      return new WhatIfReport.Shift(0, Duration.ZERO, null, null, null, null, null);
    }
    List<Duration> sorted = shifts.stream().sorted().toList();
    Duration total = sorted.stream().reduce(Duration.ZERO, Duration::plus);
    return new WhatIfReport.Shift(
        sorted.size(),
        total,
        sorted.get(0),
        rank(sorted, 0.50),
        rank(sorted, 0.90),
        rank(sorted, 0.99),
        sorted.get(sorted.size() - 1));
  }

  private static Duration rank(List<Duration> sorted, double p) {
    int index = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, index));
  }
}
