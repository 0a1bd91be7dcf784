package io.redrive.workflow.testkit;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link WorkflowTestkit#explore} found: the clean run, and one run per failure point.
 * Immutable.
 *
 * @param clean the run without failures
 * @param runs one run per failure point, in the order the points come in the clean run
 */
public record ExplorationReport(ExploredRun clean, List<ExploredRun> runs) {
  public ExplorationReport {
    runs = List.copyOf(runs);
  }

  /**
   * The runs whose outcome differs from the clean run's: each names a failure point the
   * orchestration or its activities do not survive unchanged (a non-idempotent activity, a
   * determinism bug). Empty when every failure point leaves the outcome as it was.
   */
  public List<ExploredRun> differences() {
    return runs.stream().filter(r -> !r.sameOutcomeAs(clean)).toList();
  }

  /**
   * Per activity name, the most times its handler ran in one run (the clean run included): above
   * the clean run's count, the activity runs again after a failure, so it must be idempotent.
   */
  public Map<String, Integer> maxHandlerRuns() {
    Map<String, Integer> max = new TreeMap<>(clean.handlerRuns());
    for (ExploredRun r : runs) {
      r.handlerRuns().forEach((name, n) -> max.merge(name, n, Math::max));
    }
    return max;
  }

  /**
   * The report for people: the clean outcome, then one line per failure point with its outcome
   * (marked when it differs) and the handler runs.
   */
  public String toText() {
    StringBuilder b = new StringBuilder();
    b.append("clean run: ")
        .append(clean.outcome())
        .append("; handler runs ")
        .append(new TreeMap<>(clean.handlerRuns()))
        .append('\n');
    for (ExploredRun r : runs) {
      b.append(r.sameOutcomeAs(clean) ? "  same     " : "  DIFFERS  ")
          .append(r.point().describe())
          .append(r.injected() ? "" : " (not reached)")
          .append(": ")
          .append(r.outcome())
          .append("; handler runs ")
          .append(new TreeMap<>(r.handlerRuns()))
          .append('\n');
    }
    b.append(differences().size())
        .append(" of ")
        .append(runs.size())
        .append(" failure points changed the outcome\n");
    return b.toString();
  }
}
