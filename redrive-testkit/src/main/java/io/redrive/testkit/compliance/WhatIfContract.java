package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.lease.LeasedMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.whatif.RetryCandidate;
import io.redrive.whatif.WhatIfEnd;
import io.redrive.whatif.WhatIfReport;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What-if for retry policies (docs/engine.md, "What-if for retry policies"): stories recorded with
 * the controllable clock, replayed under candidate policies, against answers computed by hand.
 *
 * <p>The record (T = the first lease; queue: 3 attempts, fixed 1-minute backoff; every attempt runs
 * 10 s): A fails at T+10s and completes at T+80s; B fails three times and dies at T+150s; C fails
 * not retryable at T+10s; D fails twice and completes at T+150s.
 */
public abstract class WhatIfContract extends ComplianceTestBase {
  private static final Duration RUN = Duration.ofSeconds(10);
  private static final Duration SINCE = Duration.ofDays(1);

  /** Records the four stories; returns their ids by letter. */
  private Map<String, String> record() {
    createQueue(
        QUEUE,
        defaults()
            .withMaxAttempts(3)
            .withBackoff(new FixedBackoff(Duration.ofMinutes(1)))
            .withCompletedRetention(Duration.ofDays(7)));
    Map<String, String> ids = new HashMap<>();
    for (String letter : List.of("A", "B", "C", "D")) {
      ids.put(letter, enqueue(newMessage(QUEUE).payload("\"" + letter + "\"").build()));
    }
    Map<String, LeasedMessage> first = leaseAll(4); // T
    advance(RUN);
    fail(first.get(ids.get("A")));
    fail(first.get(ids.get("B")));
    failPermanently(first.get(ids.get("C")));
    fail(first.get(ids.get("D")));
    advance(Duration.ofMinutes(1)); // T+70s
    Map<String, LeasedMessage> second = leaseAll(3);
    advance(RUN);
    complete(second.get(ids.get("A"))); // T+80s
    fail(second.get(ids.get("B")));
    fail(second.get(ids.get("D")));
    advance(Duration.ofMinutes(1)); // T+140s
    Map<String, LeasedMessage> third = leaseAll(2);
    advance(RUN);
    fail(third.get(ids.get("B"))); // dead at T+150s
    complete(third.get(ids.get("D"))); // T+150s
    return ids;
  }

  private Map<String, LeasedMessage> leaseAll(int expected) {
    Map<String, LeasedMessage> byId = new HashMap<>();
    for (LeasedMessage m : lease(QUEUE, 10, LONG_LEASE).leased()) {
      byId.put(m.id(), m);
    }
    assertThat(byId).hasSize(expected);
    return byId;
  }

  @Test
  void fewerAttemptsShorterBackoff_matchesTheHandComputedAnswer() {
    record();
    // max 2, fixed 30 s. A: fails T+10, again at T+40, completes T+50 (30 s earlier).
    // B: fails T+10 and T+50, dead by attempts. C: not retryable, dead. D: fails T+10 and T+50:
    // dead by attempts, where it completed before.
    WhatIfReport r =
        redrive.whatIf(
            QUEUE, SINCE, new RetryCandidate(2, new FixedBackoff(Duration.ofSeconds(30)), 0));

    assertThat(r.replayed()).isEqualTo(4);
    assertThat(r.skipped()).isZero();
    assertThat(r.recorded())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                WhatIfEnd.COMPLETED, 2,
                WhatIfEnd.DEAD_ATTEMPTS, 1,
                WhatIfEnd.DEAD_NOT_RETRYABLE, 1));
    assertThat(r.candidate())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                WhatIfEnd.COMPLETED, 1,
                WhatIfEnd.DEAD_ATTEMPTS, 2,
                WhatIfEnd.DEAD_NOT_RETRYABLE, 1));
    assertThat(r.newlyDead()).isEqualTo(1);
    assertThat(r.newlyCompleted()).isZero();
    assertThat(r.assumed()).isZero();
    assertThat(r.shift().count()).isEqualTo(1);
    assertThat(r.shift().total()).isEqualTo(Duration.ofSeconds(-30));
    assertThat(r.shift().p50()).isEqualTo(Duration.ofSeconds(-30));
  }

  @Test
  void moreAttemptsExponentialBackoff_assumesTheMissingAttemptsFail() {
    record();
    // max 5, exponential 10 s x2 cap 1 m. A: T+10 fail, +10 s, completes T+30 (50 s earlier).
    // B: fails T+10, T+30, T+60 as recorded, then two assumed failures (T+110, T+180): dead.
    // C: not retryable. D: fails T+10 and T+30, completes T+60 (90 s earlier).
    WhatIfReport r =
        redrive.whatIf(
            QUEUE,
            SINCE,
            new RetryCandidate(
                5, new ExponentialBackoff(Duration.ofSeconds(10), 2.0, Duration.ofMinutes(1)), 0));

    assertThat(r.candidate())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                WhatIfEnd.COMPLETED, 2,
                WhatIfEnd.DEAD_ATTEMPTS, 1,
                WhatIfEnd.DEAD_NOT_RETRYABLE, 1));
    assertThat(r.assumed()).isEqualTo(1);
    assertThat(r.newlyCompleted()).isZero();
    assertThat(r.newlyDead()).isZero();
    assertThat(r.shift().count()).isEqualTo(2);
    assertThat(r.shift().total()).isEqualTo(Duration.ofSeconds(-140));
    assertThat(r.shift().min()).isEqualTo(Duration.ofSeconds(-90));
    assertThat(r.shift().p50()).isEqualTo(Duration.ofSeconds(-90));
    assertThat(r.shift().p90()).isEqualTo(Duration.ofSeconds(-50));
    assertThat(r.shift().max()).isEqualTo(Duration.ofSeconds(-50));
  }

  @Test
  void whatIf_storiesOutsideThePeriod_areNotReplayed_andBadInputIsRefused() {
    record();
    advance(Duration.ofHours(2));
    RetryCandidate c = new RetryCandidate(3, new FixedBackoff(Duration.ofMinutes(1)), 0);
    assertThat(redrive.whatIf(QUEUE, Duration.ofHours(1), c).replayed()).isZero();
    assertThat(redrive.whatIf(QUEUE, Duration.ofHours(3), c).replayed()).isEqualTo(4);
    assertThatThrownBy(() -> redrive.whatIf(QUEUE, Duration.ZERO, c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("since");
    assertThatThrownBy(() -> new RetryCandidate(0, new FixedBackoff(Duration.ZERO), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxAttempts");
  }

  @Test
  void deadLettersMovedToTheDlq_areReplayedForTheirSourceQueue() {
    createQueue(DLQ);
    createQueue(
        QUEUE,
        defaults()
            .withMaxAttempts(2)
            .withBackoff(new FixedBackoff(Duration.ofMinutes(1)))
            .withDeadLetter(DeadLetter.moveTo(DLQ)));
    enqueue(QUEUE);
    fail(leaseOne(QUEUE, LONG_LEASE)); // T+0, run 0 s
    advance(Duration.ofMinutes(1));
    fail(leaseOne(QUEUE, LONG_LEASE)); // dead at T+1m: moved to the DLQ with its history
    assertThat(messagesIn(DLQ)).hasSize(1);

    WhatIfReport r =
        redrive.whatIf(
            QUEUE, SINCE, new RetryCandidate(3, new FixedBackoff(Duration.ofSeconds(5)), 0));
    assertThat(r.replayed()).isEqualTo(1);
    assertThat(r.recorded()).containsExactlyEntriesOf(Map.of(WhatIfEnd.DEAD_ATTEMPTS, 1));
    assertThat(r.candidate()).containsExactlyEntriesOf(Map.of(WhatIfEnd.DEAD_ATTEMPTS, 1));
    assertThat(r.assumed()).isEqualTo(1); // the third attempt is assumed to fail as the second
    assertThat(
            redrive
                .whatIf(DLQ, SINCE, new RetryCandidate(3, new FixedBackoff(Duration.ZERO), 0))
                .replayed())
        .as("a what-if of the DLQ itself replays the copies it holds, with their source attempts")
        .isEqualTo(1);
  }
}
