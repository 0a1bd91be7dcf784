package io.redrive.testkit.worker;

import java.util.Collection;
import java.util.List;

/**
 * Every worker scenario class, so a store module can assert that it runs them all:
 *
 * <pre>{@code
 * assertThat(WorkerScenarios.uncovered(List.of(SqliteWorkerOutcomeTest.class, ...))).isEmpty();
 * }</pre>
 */
public final class WorkerScenarios {
  private static final List<Class<?>> ALL =
      List.of(
          OutcomeScenarios.class,
          ClassificationScenarios.class,
          MaintenanceScenarios.class,
          HangScenarios.class,
          HeartbeatScenarios.class,
          UnregisteredTypeScenarios.class,
          MixedLoadScenarios.class,
          ShutdownScenarios.class,
          StreamScenarios.class,
          PriorityScenarios.class,
          ProgressScenarios.class,
          MetricsScenarios.class,
          BuilderValidationScenarios.class,
          CircuitScenarios.class);

  private WorkerScenarios() {}

  /** Every scenario class, in a stable order. */
  public static List<Class<?>> all() {
    return ALL;
  }

  /** The scenario classes that none of {@code testClasses} extends. */
  public static List<Class<?>> uncovered(Collection<Class<?>> testClasses) {
    return ALL.stream()
        .filter(scenario -> testClasses.stream().noneMatch(scenario::isAssignableFrom))
        .toList();
  }
}
