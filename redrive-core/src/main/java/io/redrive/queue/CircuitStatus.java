package io.redrive.queue;

import java.time.Instant;
import java.util.List;

/**
 * One circuit of a queue, as the API, CLI and dashboard show it: the dependency it guards, where it
 * stands now (a half-open circuit's waves moved on by the time), its counters and its last changes.
 *
 * @param dependency what it guards ({@code smtp}, a host)
 * @param state where it stands now
 * @param failures failures counted in its current window (CLOSED)
 * @param openedAt when it last opened, or null
 * @param nextProbeAt OPEN: when the next canary may go (null: opened by hand, no probes);
 *     HALF_OPEN: when the current wave ends; CLOSED: null
 * @param wave HALF_OPEN: the current wave, 1-based (0 otherwise)
 * @param types the message types that failed against it (their messages wait with it)
 * @param held messages of the queue not yet leased that need it (their last failure named it, or
 *     their type failed against it), counted while it holds; 0 when closed
 * @param changedAt when its state last changed, or null
 * @param changedBy {@code engine} or {@code operator}
 * @param history its last changes of state (at most 50), newest first
 */
public record CircuitStatus(
    String dependency,
    CircuitState state,
    int failures,
    Instant openedAt,
    Instant nextProbeAt,
    int wave,
    List<String> types,
    long held,
    Instant changedAt,
    String changedBy,
    List<Change> history) {

  /** A change of state: when, to what, by whom ({@code engine} or {@code operator}). */
  public record Change(Instant at, CircuitState state, String by) {}

  public CircuitStatus {
    types = List.copyOf(types);
    history = List.copyOf(history);
  }
}
