package io.redrive.bench.scenario;

import io.redrive.bench.Measurement;

/**
 * One (store, parameters) cell of a scenario. The runner calls {@link #runOurs} and {@link
 * #runBaseline} alternately, once per repetition; each run uses its own fresh database unless the
 * cell says otherwise (depth shares a filled one across repetitions).
 */
public interface Cell extends AutoCloseable {

  /** The parameters as shown in the table, e.g. "producers=4 batch=100". */
  String params();

  /** What Redrive's side runs, e.g. "Redrive.enqueue". */
  String oursLabel();

  /** What the baseline runs, or null when the cell has none. */
  String baselineLabel();

  /** The unit of both sides' headline figure. */
  default String unit() {
    return "msgs/s";
  }

  /** Repetitions to run given the requested count (steady state runs once). */
  default int reps(int requested) {
    return requested;
  }

  Measurement runOurs() throws Exception;

  Measurement runBaseline() throws Exception;

  /** Releases what the cell kept across repetitions. */
  @Override
  default void close() {}
}
