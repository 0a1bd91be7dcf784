package io.redrive.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one owner of held leases and taken slots: each slot freed once, each lease let go once. */
class SlotsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Wakeup wakeup = new Wakeup();
  private final Slots slots = new Slots(2, new WorkerMetrics(registry, "q", "w1"), wakeup);

  /** A lease of message {@code aaaaaaaa-0000-7000-8000-000000000000} (for "a"), nonce all ones. */
  private static HeldLease lease(String letter) {
    String id = letter.repeat(8) + "-0000-7000-8000-000000000000";
    LeasedMessage m =
        new LeasedMessage(
            id + "." + "1".repeat(32),
            id,
            "q",
            "t",
            "{}",
            Map.of(),
            "s",
            1,
            3,
            0,
            Instant.EPOCH,
            Instant.EPOCH);
    return new HeldLease(m, 0);
  }

  private double inFlightGauge() {
    return registry.get("redrive.worker.in.flight").gauge().value();
  }

  @Test
  void aRunTakesOneSlotAndFinishingFreesItOnceAndWakesThePoller() throws Exception {
    Run run = new Run(List.of(lease("a"), lease("b")));
    slots.hold(run);
    slots.take(run);
    assertThat(slots.free()).isEqualTo(1);
    assertThat(slots.inFlight()).isEqualTo(1);
    assertThat(slots.running()).containsExactly(run);
    assertThat(inFlightGauge()).isEqualTo(1.0);
    wakeup.await(Duration.ZERO); // consume any earlier signal

    slots.finish(run);
    slots.finish(run); // the watchdog and a late settle answer may both get here

    assertThat(slots.free()).isEqualTo(2);
    assertThat(slots.idle()).isTrue();
    assertThat(run.finished()).isTrue();
    assertThat(inFlightGauge()).isEqualTo(0.0);
    assertThat(wakeup.await(Duration.ZERO)).isTrue();
  }

  @Test
  void claimingTheRestGivesOnlyUnclaimedTokensAndStopsHoldingAll() {
    HeldLease first = lease("a");
    HeldLease settling = lease("b");
    HeldLease waiting = lease("c");
    Run run = new Run(List.of(first, settling, waiting));
    slots.hold(run);
    assertThat(settling.claim()).isTrue(); // someone else settles it

    List<LeaseToken> tokens = slots.claimFrom(run, run.after(first));

    assertThat(tokens).containsExactly(waiting.token);
    assertThat(tokens.get(0).toString()).isEqualTo(waiting.message.token());
    assertThat(waiting.claimed()).isTrue();
    assertThat(first.claimed()).isFalse();
    List<HeldLease> held = new ArrayList<>();
    slots.forEachHeld((h, r) -> held.add(h));
    assertThat(held).containsExactly(first);
    assertThat(slots.claimFrom(run, 1)).isEmpty();
  }

  @Test
  void aHeldLeaseIsRenewableWithItsRunUntilSettled() {
    HeldLease h = lease("a");
    Run run = new Run(List.of(h));
    slots.hold(run);
    List<Run> runs = new ArrayList<>();
    slots.forEachHeld((lease, r) -> runs.add(r));
    assertThat(runs).containsExactly(run);

    slots.settled(h);

    slots.forEachHeld((lease, r) -> runs.add(r));
    assertThat(runs).hasSize(1);
  }
}
