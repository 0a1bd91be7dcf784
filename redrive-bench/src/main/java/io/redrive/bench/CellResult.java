package io.redrive.bench;

import java.util.List;

/**
 * One cell of a scenario's table: a store and a set of parameters, both sides measured.
 *
 * @param scenario the scenario name
 * @param store {@code sqlite} or {@code postgres}
 * @param params the parameters, e.g. "producers=4 batch=100"
 * @param unit what {@code ours}/{@code baseline} values count, e.g. "msgs/s"
 * @param ours Redrive's repetitions
 * @param baseline the baseline's repetitions, or null when the scenario has none
 * @param ratio ours median / baseline median, or null without a baseline
 * @param checks every correctness check of every repetition
 */
public record CellResult(
    String scenario,
    String store,
    String params,
    String unit,
    SideResult ours,
    SideResult baseline,
    Double ratio,
    List<Check> checks) {

  /** True when every check passed (or there were none). */
  public boolean checksPassed() {
    return checks.stream().allMatch(Check::passed);
  }
}
