package io.redrive.workflow.testkit;

import io.redrive.workflow.Activity;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.WorkflowRegistry;
import java.util.function.Function;

/** Copies of a user's registry with every activity's code wrapped (counted, stubbed, stalled). */
final class Registries {
  private Registries() {}

  /**
   * {@code user}'s orchestrations, and each of its activities with its code replaced by what {@code
   * wrap} makes of its registration (name, types, timeout, queue and classifier kept).
   */
  static WorkflowRegistry wrapActivities(
      WorkflowRegistry user, Function<ActivityRegistration, Activity<Object, Object>> wrap) {
    WorkflowRegistry.Builder b = WorkflowRegistry.builder().orchestrationsOf(user);
    for (String name : user.activityNames()) {
      ActivityRegistration r = user.activity(name).orElseThrow();
      b.activity(
          new ActivityRegistration(
              r.name(),
              r.inputType(),
              r.outputType(),
              wrap.apply(r),
              r.timeout(),
              r.queue(),
              r.classifier()));
    }
    return b.build();
  }
}
