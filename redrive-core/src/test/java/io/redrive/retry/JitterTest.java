package io.redrive.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureReason;
import io.redrive.queue.QueuePolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class JitterTest {
  private static final Duration D = Duration.ofSeconds(10);

  @Test
  void none_isExactAndDrawsNothing() {
    SplittableRandom random = new SplittableRandom(1);
    long before = new SplittableRandom(1).nextLong();

    assertThat(Jitter.NONE.apply(D, random)).isEqualTo(D);
    assertThat(random.nextLong()).as("nothing drawn").isEqualTo(before);
  }

  @Test
  void full_staysWithinZeroToTheDelay_andReachesBothHalves() {
    SplittableRandom random = new SplittableRandom(42);
    var delays = IntStream.range(0, 1000).mapToObj(i -> Jitter.FULL.apply(D, random)).toList();

    assertThat(delays).allSatisfy(d -> assertThat(d).isBetween(Duration.ZERO, D));
    assertThat(delays).anySatisfy(d -> assertThat(d).isLessThan(Duration.ofSeconds(2)));
    assertThat(delays).anySatisfy(d -> assertThat(d).isGreaterThan(Duration.ofSeconds(8)));
  }

  @Test
  void equal_staysWithinHalfTheDelayToTheDelay() {
    SplittableRandom random = new SplittableRandom(42);
    var delays = IntStream.range(0, 1000).mapToObj(i -> Jitter.EQUAL.apply(D, random)).toList();

    assertThat(delays).allSatisfy(d -> assertThat(d).isBetween(Duration.ofSeconds(5), D));
    assertThat(delays).anySatisfy(d -> assertThat(d).isLessThan(Duration.ofSeconds(6)));
  }

  @Test
  void apply_sameSeed_sameDelays() {
    Random a = new Random(7);
    Random b = new Random(7);

    assertThat(Jitter.FULL.apply(D, a)).isEqualTo(Jitter.FULL.apply(D, b));
    assertThat(Jitter.EQUAL.apply(D, a)).isEqualTo(Jitter.EQUAL.apply(D, b));
  }

  @Test
  void apply_zeroDelay_staysZero() {
    assertThat(Jitter.FULL.apply(Duration.ZERO, new SplittableRandom(1))).isZero();
  }

  @Test
  void parse_anyCase_andNamesTheOptionWhenWrong() {
    assertThat(Jitter.parse("jitter", "full")).isEqualTo(Jitter.FULL);
    assertThat(Jitter.parse("jitter", " Equal ")).isEqualTo(Jitter.EQUAL);
    assertThatThrownBy(() -> Jitter.parse("backoff.jitter", "half"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("backoff.jitter: must be one of NONE, FULL, EQUAL, was half");
  }

  @Test
  void backoff_defaultsToNone_andWithJitterKeepsTheDelays() {
    assertThat(Backoff.defaultBackoff().jitter()).isEqualTo(Jitter.NONE);
    FixedBackoff fixed = new FixedBackoff(D).withJitter(Jitter.EQUAL);
    assertThat(fixed.cooldown()).isEqualTo(D);
    assertThat(fixed.delayAfter(3)).isEqualTo(D);
    assertThat(new ExponentialBackoff(D, 2.0, D, null).jitter()).isEqualTo(Jitter.NONE);
  }

  @Test
  void withRetry_keepsTheJitter() {
    QueuePolicy p =
        QueuePolicy.defaults()
            .withBackoff(Backoff.defaultBackoff().withJitter(Jitter.FULL))
            .withRetry(3, D);

    assertThat(p.backoff()).isEqualTo(new FixedBackoff(D, Jitter.FULL));
  }

  @Test
  void onFailure_seededRandom_spreadsTheBackoffButNotRetryAfter() {
    QueuePolicy p = QueuePolicy.defaults().withBackoff(new FixedBackoff(D, Jitter.FULL));
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    var spread =
        DeliveryRules.onFailure(
            p, 1, FailureReason.HANDLER_EXCEPTION, null, null, now, new SplittableRandom(3));
    var expected = now.plus(Jitter.FULL.apply(D, new SplittableRandom(3)));
    var exact =
        DeliveryRules.onFailure(
            p,
            1,
            FailureReason.HANDLER_EXCEPTION,
            null,
            Duration.ofSeconds(42),
            now,
            new SplittableRandom(3));

    assertThat(spread.visibleAt()).isEqualTo(expected);
    assertThat(exact.visibleAt()).isEqualTo(now.plusSeconds(42));
  }
}
