package io.redrive.workflow.testkit;

import java.util.List;

/**
 * The deliveries of one activity that a {@link WorkflowTestEnvironment} ran since its last reset,
 * oldest first, crashed ones included. Immutable snapshot.
 *
 * @param activity the activity's name
 * @param deliveries every delivery that reached the activity's code (or its stub)
 */
public record ActivityCalls(String activity, List<ActivityDelivery> deliveries) {
  public ActivityCalls {
    deliveries = List.copyOf(deliveries);
  }

  /** How many deliveries ran (retries and crashed deliveries count). */
  public int count() {
    return deliveries.size();
  }

  /** The inputs of the deliveries, in order, as the activity received them. */
  public List<Object> inputs() {
    return deliveries.stream().map(ActivityDelivery::input).toList();
  }

  /**
   * The inputs as {@code type}.
   *
   * @throws ClassCastException when an input is not a {@code type} (it is the registered type)
   */
  public <T> List<T> inputs(Class<T> type) {
    return deliveries.stream().map(d -> type.cast(d.input())).toList();
  }
}
