package io.redrive.engine;

import io.redrive.queue.CircuitState;
import java.time.Instant;

/**
 * The stored standing of one circuit (a queue and one of its dependencies), as {@link CircuitRules}
 * reads and writes it. Immutable.
 *
 * @param state where it stands
 * @param failures failures counted in the current window (CLOSED)
 * @param windowStart when the current window began, or null
 * @param openedAt when it last opened, or null
 * @param nextProbeAt OPEN: when the canary may go (null: opened by hand, no probes until closed by
 *     hand); HALF_OPEN: when the current wave ends; CLOSED: null
 * @param wave HALF_OPEN: the index of the current wave in {@code CircuitPolicy.waves}
 * @param passed HALF_OPEN: messages let through in the current wave
 * @param changedAt when its state last changed, or null
 * @param changedBy who changed it last: {@link #ENGINE} or {@link #OPERATOR}
 */
public record Circuit(
    CircuitState state,
    int failures,
    Instant windowStart,
    Instant openedAt,
    Instant nextProbeAt,
    int wave,
    int passed,
    Instant changedAt,
    String changedBy) {

  /** The engine changed it: a threshold crossed, a probe, a wave, a failed canary. */
  public static final String ENGINE = "engine";

  /** An operator opened or closed it by hand. */
  public static final String OPERATOR = "operator";

  /** A circuit nothing has failed against yet. */
  public static Circuit closed() {
    return new Circuit(CircuitState.CLOSED, 0, null, null, null, 0, 0, null, ENGINE);
  }

  /** True when messages that need the dependency may be held back (OPEN or HALF_OPEN). */
  public boolean holding() {
    return state != CircuitState.CLOSED;
  }
}
