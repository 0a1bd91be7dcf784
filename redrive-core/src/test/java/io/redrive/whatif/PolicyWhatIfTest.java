package io.redrive.whatif;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.retry.FixedBackoff;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The replay rule on synthetic stories: the crash-loop breaker on and off, a reset's earlier
 * attempts ignored, an expired story kept as recorded, a story without attempts skipped.
 */
class PolicyWhatIfTest {
  private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");
  private static final RetryCandidate NO_BREAKER =
      new RetryCandidate(5, new FixedBackoff(Duration.ofSeconds(30)), 0);

  private static HistoryEntry attempt(int n, Outcome outcome, String worker, int from, int to) {
    return new HistoryEntry(n, outcome, worker, T.plusSeconds(from), T.plusSeconds(to), null, null);
  }

  private static Message dead(FailureReason reason, int maxAttempts, HistoryEntry... history) {
    return new Message(
        "m",
        "q",
        "t",
        "{}",
        Map.of(),
        null,
        MessageState.DEAD,
        history.length,
        maxAttempts,
        0,
        T,
        T,
        null,
        null,
        reason,
        T.plusSeconds(999),
        null,
        null,
        null,
        null,
        null,
        List.of(history),
        null,
        0,
        null,
        null);
  }

  @Test
  void crashLoop_breakerOn_diesAtTheSecondDistinctWorker_off_usesTheAttempts() {
    // Recorded: lease expiries on w1 and w2, then the crash-loop breaker (max crashes 2) killed it.
    Message m =
        dead(
            FailureReason.POISON,
            5,
            attempt(1, Outcome.LEASE_EXPIRED, "w1", 0, 30),
            attempt(2, Outcome.LEASE_EXPIRED, "w2", 40, 70));

    WhatIfReport on =
        PolicyWhatIf.replay(
            List.of(m), new RetryCandidate(5, new FixedBackoff(Duration.ofSeconds(30)), 2));
    assertThat(on.recorded()).containsEntry(WhatIfEnd.DEAD_CRASH_LOOP, 1);
    assertThat(on.candidate()).containsEntry(WhatIfEnd.DEAD_CRASH_LOOP, 1);
    assertThat(on.assumed()).isZero();

    WhatIfReport off = PolicyWhatIf.replay(List.of(m), NO_BREAKER);
    assertThat(off.candidate()).containsEntry(WhatIfEnd.DEAD_ATTEMPTS, 1);
    assertThat(off.assumed()).isEqualTo(1); // attempts 3 to 5 assumed to crash as the 2nd did
  }

  @Test
  void reset_ignoresTheAttemptsBeforeIt_andAStoryWithoutAttemptsIsSkipped() {
    Message retried =
        new Message(
            "m",
            "q",
            "t",
            "{}",
            Map.of(),
            null,
            MessageState.COMPLETED,
            1,
            5,
            0,
            T,
            T,
            null,
            null,
            null,
            null,
            T.plusSeconds(210),
            null,
            null,
            null,
            null,
            List.of(
                attempt(1, Outcome.FAILED, "w1", 0, 10),
                new HistoryEntry(
                    0, Outcome.RETRIED, "ops", T.plusSeconds(100), T.plusSeconds(100), null, null),
                attempt(1, Outcome.COMPLETED, "w1", 200, 210)),
            null,
            0,
            null,
            null);
    Message expired = dead(FailureReason.EXPIRED, 5);

    WhatIfReport r = PolicyWhatIf.replay(List.of(retried, expired), NO_BREAKER);
    assertThat(r.replayed()).isEqualTo(1);
    assertThat(r.skipped()).isEqualTo(1);
    assertThat(r.candidate()).containsEntry(WhatIfEnd.COMPLETED, 1);
    assertThat(r.shift().total()).isZero(); // completes at its first attempt after the reset
  }

  @Test
  void expiredStory_staysAsRecorded() {
    Message m = dead(FailureReason.EXPIRED, 3, attempt(1, Outcome.FAILED, "w1", 0, 10));
    WhatIfReport r = PolicyWhatIf.replay(List.of(m), NO_BREAKER);
    assertThat(r.recorded()).containsEntry(WhatIfEnd.DEAD_OTHER, 1);
    assertThat(r.candidate()).containsEntry(WhatIfEnd.DEAD_OTHER, 1);
  }
}
