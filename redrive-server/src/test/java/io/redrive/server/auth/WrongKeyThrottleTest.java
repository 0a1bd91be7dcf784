package io.redrive.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.ControllableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The wrong-key throttle on a controllable clock: its limit, its window, its bound on memory. */
class WrongKeyThrottleTest {
  private final ControllableClock clock = ControllableClock.startingAtEpochOfTests();
  private final WrongKeyThrottle throttle = new WrongKeyThrottle(clock);

  private void guess(String address, int times) {
    for (int i = 0; i < times; i++) {
      throttle.wrongKey(address);
    }
  }

  @Test
  void belowTheLimit_noWait() {
    guess("10.0.0.1", WrongKeyThrottle.LIMIT - 1);
    assertThat(throttle.waitFor("10.0.0.1")).isZero();
  }

  @Test
  void atTheLimit_waitsUntilTheWindowEnds_thenStartsAfresh() {
    guess("10.0.0.1", WrongKeyThrottle.LIMIT);
    assertThat(throttle.waitFor("10.0.0.1")).isEqualTo(WrongKeyThrottle.WINDOW);
    assertThat(throttle.waitFor("10.0.0.2")).as("another address").isZero();
    clock.advance(Duration.ofSeconds(45));
    assertThat(throttle.waitFor("10.0.0.1")).isEqualTo(Duration.ofSeconds(15));
    clock.advance(Duration.ofSeconds(15));
    assertThat(throttle.waitFor("10.0.0.1")).isZero();
    guess("10.0.0.1", 1);
    assertThat(throttle.waitFor("10.0.0.1")).as("a new window, one strike").isZero();
  }

  @Test
  void strikesSpreadOverMoreThanAWindow_neverBlock() {
    for (int i = 0; i < 3 * WrongKeyThrottle.LIMIT; i++) {
      guess("10.0.0.1", 1);
      clock.advance(WrongKeyThrottle.WINDOW.dividedBy(WrongKeyThrottle.LIMIT - 1));
    }
    assertThat(throttle.waitFor("10.0.0.1")).isZero();
  }

  @Test
  void retryAfter_wholeSecondsRoundedUp_atLeastOne() {
    assertThat(WrongKeyThrottle.retryAfterSeconds(Duration.ofMillis(1))).isOne();
    assertThat(WrongKeyThrottle.retryAfterSeconds(Duration.ofMillis(1001))).isEqualTo(2);
    assertThat(WrongKeyThrottle.retryAfterSeconds(Duration.ofSeconds(60))).isEqualTo(60);
  }

  @Test
  void manyAddresses_memoryBounded_endedWindowsForgottenFirst() {
    for (int i = 0; i < WrongKeyThrottle.MAX_ADDRESSES; i++) {
      throttle.wrongKey("a" + i);
    }
    guess("late", WrongKeyThrottle.LIMIT);
    assertThat(throttle.waitFor("late")).as("no room while every window runs").isZero();
    clock.advance(WrongKeyThrottle.WINDOW);
    guess("late", WrongKeyThrottle.LIMIT);
    assertThat(throttle.waitFor("late")).as("ended windows made room").isPositive();
  }
}
