package io.redrive.queue;

import io.redrive.time.DurationText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The circuit breaker of a queue's dependencies: {@code failures} failures naming one dependency
 * within {@code window} open its circuit; while open, the messages that need it are held (not
 * leased, no attempt used) and, every {@code probeInterval}, one canary goes through; a canary that
 * does not fail within the interval half-opens the circuit, which then lets {@code waves} messages
 * through per probe interval (1, 5, 25 …) and closes after the last wave; any failure against the
 * dependency before that opens it again. Immutable and validated on construction.
 *
 * @param failures failures within the window that open a circuit (1–10 000)
 * @param window how far back failures count (1ms–1d)
 * @param probeInterval the wait before each probe, and the length of each half-open wave (1ms–1d)
 * @param waves messages let through per probe interval when half-open, the canary's wave first
 *     (1–10 entries, each 1–100 000, none smaller than the one before)
 * @param learn when true, a failure that names no dependency gets one from its exception (see
 *     {@code Dependencies.learn}); when false only failures that name one count
 */
public record CircuitPolicy(
    int failures, Duration window, Duration probeInterval, List<Integer> waves, boolean learn) {

  /** Most failures a threshold may ask for. */
  public static final int MAX_FAILURES = 10_000;

  /** Longest window or probe interval. */
  public static final Duration MAX_DURATION = Duration.ofDays(1);

  /** Most waves. */
  public static final int MAX_WAVES = 10;

  /** Most messages of one wave. */
  public static final int MAX_WAVE = 100_000;

  /** 5 failures within 30 s open it; a probe every 10 s; waves 1, 5, 25; no learning. */
  public static CircuitPolicy defaults() {
    return new CircuitPolicy(5, Duration.ofSeconds(30), Duration.ofSeconds(10), null, false);
  }

  public CircuitPolicy {
    if (failures < 1 || failures > MAX_FAILURES) {
      throw new IllegalArgumentException(
          "circuit.failures: must be between 1 and " + MAX_FAILURES + ", was " + failures);
    }
    requireDuration("circuit.window", window);
    requireDuration("circuit.probeInterval", probeInterval);
    waves = waves == null ? List.of(1, 5, 25) : List.copyOf(waves);
    if (waves.isEmpty() || waves.size() > MAX_WAVES) {
      throw new IllegalArgumentException(
          "circuit.waves: must have 1 to " + MAX_WAVES + " waves, was " + waves);
    }
    int before = 1;
    for (int wave : waves) {
      if (wave < before || wave > MAX_WAVE) {
        throw new IllegalArgumentException(
            "circuit.waves: each wave must be between 1 and "
                + MAX_WAVE
                + " and none smaller than the one before, was "
                + waves);
      }
      before = wave;
    }
  }

  /** The wave sizes written {@code "1,5,25"}; the error names {@code option} and the value. */
  public static List<Integer> parseWaves(String option, String text) {
    List<Integer> out = new ArrayList<>();
    try {
      for (String part : text.split(",")) {
        out.add(Integer.parseInt(part.trim()));
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          option + ": must be wave sizes such as \"1,5,25\", was \"" + text + "\"");
    }
    return out;
  }

  /** This policy with {@code value} as its failures threshold. */
  public CircuitPolicy withFailures(int value) {
    return new CircuitPolicy(value, window, probeInterval, waves, learn);
  }

  /** This policy with {@code value} as its window. */
  public CircuitPolicy withWindow(Duration value) {
    return new CircuitPolicy(failures, value, probeInterval, waves, learn);
  }

  /** This policy with {@code value} as its probe interval. */
  public CircuitPolicy withProbeInterval(Duration value) {
    return new CircuitPolicy(failures, window, value, waves, learn);
  }

  /** This policy with {@code value} as its waves. */
  public CircuitPolicy withWaves(List<Integer> value) {
    return new CircuitPolicy(failures, window, probeInterval, value, learn);
  }

  /** This policy learning (or not) dependencies from exceptions. */
  public CircuitPolicy withLearn(boolean value) {
    return new CircuitPolicy(failures, window, probeInterval, waves, value);
  }

  private static void requireDuration(String option, Duration value) {
    if (value == null || value.toMillis() < 1 || value.compareTo(MAX_DURATION) > 0) {
      throw new IllegalArgumentException(
          option
              + ": must be between 1ms and 1d, was "
              + (value == null ? "null" : DurationText.format(value)));
    }
  }
}
