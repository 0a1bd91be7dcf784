package io.redrive.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  void defaultBackoff_doublesFromOneMinute_cappedAtOneHour() {
    assertThat(
            IntStream.rangeClosed(1, 9)
                .mapToObj(a -> Backoff.defaultBackoff().delayAfter(a).toMinutes())
                .toList())
        .containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 60L, 60L, 60L);
  }

  @Test
  void exponential_hugeAttempt_staysAtCap() {
    assertThat(Backoff.defaultBackoff().delayAfter(10_000)).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void fixed_sameDelayEveryTime() {
    Backoff b = new FixedBackoff(Duration.ofSeconds(30));
    assertThat(b.delayAfter(1)).isEqualTo(b.delayAfter(7)).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void unregistered_defaultTable() {
    assertThat(
            IntStream.rangeClosed(1, 9)
                .mapToObj(a -> UnregisteredHandlerBackoff.DEFAULT.delayAfter(a).toSeconds())
                .toList())
        .containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 60L, 60L, 60L);
  }

  @Test
  void exponential_maxBelowInitial_isRejected() {
    assertThatThrownBy(
            () -> new ExponentialBackoff(Duration.ofMinutes(5), 2.0, Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("backoff.max");
  }

  @Test
  void delayAfter_attemptZero_isRejected() {
    assertThatThrownBy(() -> Backoff.defaultBackoff().delayAfter(0))
        .hasMessageStartingWith("attempt");
  }
}
