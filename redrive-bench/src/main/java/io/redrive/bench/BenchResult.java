package io.redrive.bench;

import java.util.List;

/**
 * Everything one benchmark run produced: written as JSON, rendered as Markdown.
 *
 * @param startedAt ISO-8601 start time
 * @param profile smoke or full
 * @param command the arguments the run was started with
 * @param reps requested repetitions per cell
 * @param seconds wall time of the whole run
 * @param note free text for the header (e.g. other load on the machine)
 * @param machine where it ran
 * @param scenarios per scenario: its description and cells
 * @param checksPassed whether every correctness check of every cell passed
 */
public record BenchResult(
    String startedAt,
    String profile,
    String command,
    int reps,
    double seconds,
    String note,
    Machine machine,
    List<ScenarioResult> scenarios,
    boolean checksPassed) {

  /**
   * One scenario's table.
   *
   * @param name as on the command line
   * @param title heading
   * @param about what runs, what the baseline is
   * @param cells its cells on every store
   * @param errors cells that failed to run, as "store params: message"
   */
  public record ScenarioResult(
      String name, String title, String about, List<CellResult> cells, List<String> errors) {}
}
