package io.redrive.engine;

import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.CircuitState;
import io.redrive.retry.Jitter;
import java.time.Instant;
import java.util.random.RandomGenerator;

/**
 * The circuit breaker's decisions, which every store applies under the queue row's lock so that all
 * nodes agree: what a failure against a dependency does to its circuit ({@link #onFailure}),
 * whether a message that needs it may be leased now ({@link #admit}), how a half-open circuit moves
 * on with time ({@link #advance}), and the operator's open and close. Pure functions of their
 * inputs; thread-safe.
 *
 * <p>Implementation notes. Half-open waves move on with time, not with successes: a wave whose
 * probe interval passes without a failure against the dependency counts as healthy. So a success
 * needs no bookkeeping, and completing a message costs no statement more, circuit or not; only
 * failures (rare) and leases of a queue whose circuit holds (already on the limited path) write.
 */
public final class CircuitRules {
  private CircuitRules() {}

  /**
   * What a failure does.
   *
   * @param circuit the circuit after it
   * @param refund true when the circuit was open or half-open: the attempt does not count and the
   *     message is held (the dependency is known to be down; this is not the message's fault)
   * @param changed true when the circuit's state changed (opened or re-opened)
   */
  public record Failure(Circuit circuit, boolean refund, boolean changed) {}

  /**
   * Whether a message that needs the dependency may be leased now.
   *
   * @param circuit the circuit after the decision (a probe or a wave place taken)
   * @param admit true to lease it
   */
  public record Admission(Circuit circuit, boolean admit) {}

  /** A failure naming the dependency of circuit {@code c}, at {@code now}. */
  public static Failure onFailure(CircuitPolicy policy, Circuit c, Instant now) {
    Circuit at = advance(policy, c, now);
    switch (at.state()) {
      case OPEN:
        return new Failure(at, true, false);
      case HALF_OPEN:
        return new Failure(opened(policy, at, now), true, true);
      default:
        boolean fresh =
            at.windowStart() == null || !now.isBefore(at.windowStart().plus(policy.window()));
        int failures = fresh ? 1 : at.failures() + 1;
        Instant windowStart = fresh ? now : at.windowStart();
        Circuit counted =
            new Circuit(
                CircuitState.CLOSED,
                failures,
                windowStart,
                at.openedAt(),
                null,
                0,
                0,
                at.changedAt(),
                at.changedBy());
        if (failures >= policy.failures()) {
          // The failure that crosses the threshold counted: it is what told us.
          return new Failure(opened(policy, counted, now), false, true);
        }
        return new Failure(counted, false, false);
    }
  }

  /** Whether a message that needs the dependency of {@code c} may be leased at {@code now}. */
  public static Admission admit(CircuitPolicy policy, Circuit c, Instant now) {
    Circuit at = advance(policy, c, now);
    switch (at.state()) {
      case CLOSED:
        return new Admission(at, true);
      case OPEN:
        if (at.nextProbeAt() == null || now.isBefore(at.nextProbeAt())) {
          return new Admission(at, false);
        }
        // The probe: one canary, the first wave.
        Circuit half =
            new Circuit(
                CircuitState.HALF_OPEN,
                0,
                null,
                at.openedAt(),
                now.plus(policy.probeInterval()),
                0,
                1,
                now,
                Circuit.ENGINE);
        return new Admission(half, true);
      default:
        if (at.passed() >= policy.waves().get(at.wave())) {
          return new Admission(at, false);
        }
        return new Admission(
            new Circuit(
                at.state(),
                at.failures(),
                at.windowStart(),
                at.openedAt(),
                at.nextProbeAt(),
                at.wave(),
                at.passed() + 1,
                at.changedAt(),
                at.changedBy()),
            true);
    }
  }

  /**
   * A half-open circuit as time has moved it by {@code now}: each probe interval passed without a
   * failure starts the next wave, and the last wave's end closes it. Other states are unchanged.
   */
  public static Circuit advance(CircuitPolicy policy, Circuit c, Instant now) {
    if (c.state() != CircuitState.HALF_OPEN || c.nextProbeAt() == null) {
      return c;
    }
    int wave = c.wave();
    int passed = c.passed();
    Instant end = c.nextProbeAt();
    while (!now.isBefore(end)) {
      wave++;
      passed = 0;
      if (wave >= policy.waves().size()) {
        return new Circuit(
            CircuitState.CLOSED, 0, null, c.openedAt(), null, 0, 0, end, Circuit.ENGINE);
      }
      end = end.plus(policy.probeInterval());
    }
    if (wave == c.wave()) {
      return c;
    }
    return new Circuit(
        CircuitState.HALF_OPEN, 0, null, c.openedAt(), end, wave, passed, end, Circuit.ENGINE);
  }

  /** Opened by an operator: held until closed by hand (no probes). */
  public static Circuit openByHand(Instant now) {
    return new Circuit(CircuitState.OPEN, 0, null, now, null, 0, 0, now, Circuit.OPERATOR);
  }

  /** Closed by an operator: every message flows again, the failure count starts afresh. */
  public static Circuit closeByHand(Circuit c, Instant now) {
    return new Circuit(
        CircuitState.CLOSED, 0, null, c.openedAt(), null, 0, 0, now, Circuit.OPERATOR);
  }

  /**
   * When a message refunded by the open circuit {@code c} comes back: its next probe, spread over
   * one probe interval (full jitter) so the held messages do not return as one wave. A circuit
   * opened by hand has no probe: one probe interval from now, spread the same way.
   */
  public static Instant holdUntil(
      CircuitPolicy policy, Circuit c, Instant now, RandomGenerator random) {
    Instant probe = c.nextProbeAt() != null ? c.nextProbeAt() : now.plus(policy.probeInterval());
    return probe.plus(Jitter.FULL.apply(policy.probeInterval(), random));
  }

  private static Circuit opened(CircuitPolicy policy, Circuit c, Instant now) {
    return new Circuit(
        CircuitState.OPEN,
        c.failures(),
        c.windowStart(),
        now,
        now.plus(policy.probeInterval()),
        0,
        0,
        now,
        Circuit.ENGINE);
  }
}
