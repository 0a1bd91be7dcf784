package io.redrive.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.CircuitState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CircuitRulesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** 3 failures within 30 s open it; probe every 10 s; waves 1, 5, 25. */
  private static final CircuitPolicy POLICY =
      CircuitPolicy.defaults().withFailures(3).withWaves(List.of(1, 5, 25));

  private static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  private static Circuit failTimes(Circuit c, int n, Instant now) {
    for (int i = 0; i < n; i++) {
      c = CircuitRules.onFailure(POLICY, c, now).circuit();
    }
    return c;
  }

  @Test
  void onFailure_belowTheThreshold_countsAndStaysClosed() {
    CircuitRules.Failure f = CircuitRules.onFailure(POLICY, Circuit.closed(), T0);
    f = CircuitRules.onFailure(POLICY, f.circuit(), at(1));

    assertThat(f.circuit().state()).isEqualTo(CircuitState.CLOSED);
    assertThat(f.circuit().failures()).isEqualTo(2);
    assertThat(f.refund()).isFalse();
    assertThat(f.changed()).isFalse();
  }

  @Test
  void onFailure_crossingTheThreshold_opensWithTheNextProbe_andThatFailureCounts() {
    Circuit c = failTimes(Circuit.closed(), 2, T0);

    CircuitRules.Failure f = CircuitRules.onFailure(POLICY, c, at(5));

    assertThat(f.circuit().state()).isEqualTo(CircuitState.OPEN);
    assertThat(f.circuit().openedAt()).isEqualTo(at(5));
    assertThat(f.circuit().nextProbeAt()).isEqualTo(at(15));
    assertThat(f.circuit().changedBy()).isEqualTo(Circuit.ENGINE);
    assertThat(f.refund()).as("the failure that tells us counts").isFalse();
    assertThat(f.changed()).isTrue();
  }

  @Test
  void onFailure_oldFailuresOutsideTheWindow_startAfresh() {
    Circuit c = failTimes(Circuit.closed(), 2, T0);

    Circuit after = CircuitRules.onFailure(POLICY, c, at(30)).circuit();

    assertThat(after.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(after.failures()).isEqualTo(1);
    assertThat(after.windowStart()).isEqualTo(at(30));
  }

  @Test
  void onFailure_whileOpen_isRefundedAndChangesNothing() {
    Circuit open = failTimes(Circuit.closed(), 3, T0);

    CircuitRules.Failure f = CircuitRules.onFailure(POLICY, open, at(2));

    assertThat(f.refund()).isTrue();
    assertThat(f.changed()).isFalse();
    assertThat(f.circuit()).isEqualTo(open);
  }

  @Test
  void admit_open_holdsUntilTheProbe_thenOneCanary() {
    Circuit open = failTimes(Circuit.closed(), 3, T0);

    assertThat(CircuitRules.admit(POLICY, open, at(9)).admit()).isFalse();
    CircuitRules.Admission canary = CircuitRules.admit(POLICY, open, at(10));
    assertThat(canary.admit()).isTrue();
    assertThat(canary.circuit().state()).isEqualTo(CircuitState.HALF_OPEN);
    assertThat(CircuitRules.admit(POLICY, canary.circuit(), at(11)).admit())
        .as("one canary per probe")
        .isFalse();
  }

  @Test
  void halfOpen_rampsInWavesPerProbeInterval_thenCloses() {
    Circuit open = failTimes(Circuit.closed(), 3, T0);
    Circuit c = CircuitRules.admit(POLICY, open, at(10)).circuit(); // canary, wave 1

    int secondWave = 0;
    for (int i = 0; i < 10; i++) {
      CircuitRules.Admission a = CircuitRules.admit(POLICY, c, at(20));
      c = a.circuit();
      secondWave += a.admit() ? 1 : 0;
    }
    int thirdWave = 0;
    for (int i = 0; i < 40; i++) {
      CircuitRules.Admission a = CircuitRules.admit(POLICY, c, at(30));
      c = a.circuit();
      thirdWave += a.admit() ? 1 : 0;
    }

    assertThat(secondWave).isEqualTo(5);
    assertThat(thirdWave).isEqualTo(25);
    assertThat(c.state()).isEqualTo(CircuitState.HALF_OPEN);
    Circuit closed = CircuitRules.advance(POLICY, c, at(40));
    assertThat(closed.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(closed.changedAt()).isEqualTo(at(40));
    assertThat(CircuitRules.admit(POLICY, closed, at(40)).admit()).isTrue();
  }

  @Test
  void halfOpen_aFailure_reopensWithTheNextProbe_andIsRefunded() {
    Circuit open = failTimes(Circuit.closed(), 3, T0);
    Circuit canary = CircuitRules.admit(POLICY, open, at(10)).circuit();

    CircuitRules.Failure f = CircuitRules.onFailure(POLICY, canary, at(12));

    assertThat(f.circuit().state()).isEqualTo(CircuitState.OPEN);
    assertThat(f.circuit().nextProbeAt()).isEqualTo(at(22));
    assertThat(f.refund()).isTrue();
    assertThat(f.changed()).isTrue();
  }

  @Test
  void openByHand_noProbesUntilClosedByHand() {
    Circuit open = CircuitRules.openByHand(T0);

    assertThat(open.changedBy()).isEqualTo(Circuit.OPERATOR);
    assertThat(CircuitRules.admit(POLICY, open, at(3600)).admit()).isFalse();
    Circuit closed = CircuitRules.closeByHand(open, at(3600));
    assertThat(closed.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(CircuitRules.admit(POLICY, closed, at(3600)).admit()).isTrue();
  }

  @Test
  void holdUntil_spreadsOverOneProbeIntervalAfterTheProbe() {
    Circuit open = failTimes(Circuit.closed(), 3, T0);
    SplittableRandom random = new SplittableRandom(5);

    for (int i = 0; i < 100; i++) {
      assertThat(CircuitRules.holdUntil(POLICY, open, at(1), random)).isBetween(at(10), at(20));
    }
  }

  @Test
  void holding_onlyWhenNotClosed() {
    assertThat(Circuit.closed().holding()).isFalse();
    assertThat(CircuitRules.openByHand(T0).holding()).isTrue();
  }

  @Test
  void policy_badSettings_nameTheSettingAndValue() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> POLICY.withFailures(0))
        .hasMessage("circuit.failures: must be between 1 and 10000, was 0");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> POLICY.withWindow(Duration.ZERO))
        .hasMessage("circuit.window: must be between 1ms and 1d, was 0s");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> POLICY.withWaves(List.of(5, 1)))
        .hasMessageStartingWith("circuit.waves: each wave must be between 1 and 100000");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> CircuitPolicy.parseWaves("circuit.waves", "1,x"))
        .hasMessage("circuit.waves: must be wave sizes such as \"1,5,25\", was \"1,x\"");
    assertThat(CircuitPolicy.parseWaves("waves", "1, 5,25")).containsExactly(1, 5, 25);
    assertThat(CircuitPolicy.defaults().waves()).containsExactly(1, 5, 25);
  }
}
