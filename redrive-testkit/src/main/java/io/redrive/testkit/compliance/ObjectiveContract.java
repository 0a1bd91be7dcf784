package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveKind;
import io.redrive.objective.ObjectiveStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Queue-age objectives (docs/engine.md, "Objectives"): declarations kept and replaced, bad input
 * refused, a LATENCY objective breached when messages wait past the bound and recovering when they
 * are then served in time (burn rate falls, compliance climbs back over the window), only first
 * leases of matching messages counted, the wait counted from when a message became ready (a delay
 * is not a wait), and an AGE objective sampled with the depth snapshot.
 */
public abstract class ObjectiveContract extends ComplianceTestBase {
  private static final Duration MINUTE = Duration.ofMinutes(1);

  @BeforeEach
  void startOfAMinute() {
    // Every test starts 10 s into a minute, so what it does before advancing stays in that minute.
    long intoMinute = Math.floorMod(now().toEpochMilli(), 60_000L);
    advance(Duration.ofMillis(60_000L - intoMinute + 10_000L));
  }

  private static Objective latency(String name, String type, double target) {
    return new Objective(
        name, QUEUE, type, null, ObjectiveKind.LATENCY, target, MINUTE, Duration.ofHours(1));
  }

  private ObjectiveStatus status(String name) {
    return redrive.objectives().statuses().stream()
        .filter(s -> s.objective().name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void save_list_delete_roundTrip() {
    Objective first = latency("orders-start", null, 0.95);
    redrive.objectives().save(first);
    Objective changed =
        new Objective(
            "orders-start",
            QUEUE,
            TYPE,
            "s1",
            ObjectiveKind.AGE,
            0.99,
            Duration.ofMinutes(5),
            Duration.ofDays(28));
    redrive.objectives().save(changed);
    redrive.objectives().save(latency("a-first", null, 0.9));

    assertThat(redrive.objectives().list()).containsExactly(latency("a-first", null, 0.9), changed);
    assertThat(redrive.objectives().delete("orders-start")).isTrue();
    assertThat(redrive.objectives().delete("orders-start")).isFalse();
    assertThat(redrive.objectives().list()).extracting(Objective::name).containsExactly("a-first");
  }

  @Test
  void objective_badInput_namesTheFieldAndSavesNothing() {
    assertThatThrownBy(() -> latency("x", null, 1.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("target")
        .hasMessageContaining("1.5");
    assertThatThrownBy(
            () ->
                new Objective(
                    "x", QUEUE, null, null, ObjectiveKind.AGE, 0.9, MINUTE, Duration.ofMinutes(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("window");
    assertThat(redrive.objectives().list()).isEmpty();
  }

  @Test
  void latency_breachedThenRecovering_burnRateFallsAndComplianceClimbsBack() {
    createQueue(QUEUE);
    redrive.objectives().save(latency("orders-start", null, 0.9));
    enqueueMany(QUEUE, 10);
    advance(Duration.ofMinutes(2)); // every one waits past the 1-minute bound
    lease(QUEUE, 10).leased().forEach(this::complete);

    ObjectiveStatus breached = status("orders-start");
    assertThat(breached.within()).isZero();
    assertThat(breached.beyond()).isEqualTo(10);
    assertThat(breached.compliance()).isEqualTo(0.0);
    assertThat(breached.breached()).isTrue();
    assertThat(breached.burnRateShort()).isCloseTo(10.0, within(1e-9)); // (10/10) / 0.1
    assertThat(breached.budgetRemaining()).isCloseTo(-9.0, within(1e-9));
    assertThat(breached.exhaustion()).isEqualTo(Duration.ZERO);

    for (int minute = 0; minute < 10; minute++) { // then ten minutes served in 10 s
      advance(MINUTE);
      enqueueMany(QUEUE, 10);
      advance(Duration.ofSeconds(10));
      List<LeasedMessage> leased = lease(QUEUE, 10).leased();
      assertThat(leased).extracting(LeasedMessage::attempt).hasSize(10).containsOnly(1);
      leased.forEach(this::complete);
    }

    ObjectiveStatus recovered = status("orders-start");
    assertThat(recovered.within()).isEqualTo(100);
    assertThat(recovered.beyond()).isEqualTo(10);
    assertThat(recovered.compliance()).isCloseTo(100.0 / 110, within(1e-9));
    assertThat(recovered.breached()).isFalse();
    assertThat(recovered.burnRateShort()).isZero(); // the last 5 minutes were all in time
    assertThat(recovered.burnRateLong()).isCloseTo((10.0 / 110) / 0.1, within(1e-9));
    assertThat(recovered.budgetRemaining()).isCloseTo(1 - (10.0 / 110) / 0.1, within(1e-9));
    assertThat(recovered.exhaustion()).isNull(); // nothing burns now
  }

  @Test
  void latency_countsOnlyFirstLeasesOfMatchingMessages() {
    createQueue(QUEUE);
    redrive.objectives().save(latency("emails", TYPE, 0.9));
    enqueue(newMessage(QUEUE).build());
    enqueue(NewMessage.builder(QUEUE, "other").payload(PAYLOAD).build());
    advance(Duration.ofSeconds(5));
    List<LeasedMessage> leased = lease(QUEUE, 10, Duration.ofSeconds(30)).leased();
    assertThat(leased).hasSize(2);
    advance(Duration.ofMinutes(5)); // both leases run out: the second attempts are not counted
    assertThat(lease(QUEUE, 10).leased()).extracting(LeasedMessage::attempt).containsOnly(2);

    ObjectiveStatus s = status("emails");
    assertThat(s.within()).isEqualTo(1);
    assertThat(s.beyond()).isZero();
    assertThat(s.compliance()).isEqualTo(1.0);
  }

  @Test
  void latency_countsFromWhenTheMessageBecameReady_notFromItsEnqueue() {
    createQueue(QUEUE);
    redrive.objectives().save(latency("reminders", null, 0.9));
    enqueue(newMessage(QUEUE).delay(Duration.ofMinutes(10)).build());
    enqueue(newMessage(QUEUE).delay(Duration.ofMinutes(10)).build());
    advance(Duration.ofMinutes(10).plusSeconds(20)); // due 20 s ago: in time, though 10 min old
    LeasedMessage first = lease(QUEUE, 1).leased().get(0);
    assertThat(first.readyAt()).isEqualTo(first.enqueuedAt().plus(Duration.ofMinutes(10)));
    advance(Duration.ofMinutes(2)); // the second waited 2 min 20 s since it was due: late
    assertThat(lease(QUEUE, 1).leased()).hasSize(1);

    ObjectiveStatus s = status("reminders");
    assertThat(s.within()).isEqualTo(1);
    assertThat(s.beyond()).isEqualTo(1);
  }

  @Test
  void age_sampledWithTheDepthSnapshot_onceAMinute() {
    createQueue(QUEUE);
    redrive
        .objectives()
        .save(
            new Objective(
                "orders-fresh",
                QUEUE,
                null,
                null,
                ObjectiveKind.AGE,
                0.5,
                Duration.ofMinutes(5),
                Duration.ofHours(1)));
    enqueue(QUEUE);
    redrive.recordDepth(); // oldest ready: 0 s old, within
    redrive.recordDepth(); // the same minute: not sampled again
    advance(Duration.ofMinutes(6));
    redrive.recordDepth(); // 6 min old: beyond
    leaseOne(QUEUE);
    advance(MINUTE);
    redrive.recordDepth(); // nothing ready: within

    ObjectiveStatus s = status("orders-fresh");
    assertThat(s.within()).isEqualTo(2);
    assertThat(s.beyond()).isEqualTo(1);
    assertThat(s.breached()).isFalse();
  }
}
