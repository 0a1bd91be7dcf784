package io.redrive.workflow.runtime;

import io.redrive.Redrive;
import io.redrive.internal.workflow.WorkflowStores;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;

/** Makes the activity queues a runtime uses exist, workflow-owned, at its start. */
public final class ActivityQueues {
  private ActivityQueues() {}

  /**
   * Creates {@code name} workflow-owned with the runtime's {@code maxAttempts} and {@code
   * maxCrashes} when missing; an existing queue keeps its policy.
   *
   * @throws IllegalStateException when the queue exists but is not workflow-owned
   */
  public static void ensure(Redrive redrive, String name, RuntimeSettings settings) {
    Queue queue =
        WorkflowStores.declareActivityQueue(
                redrive,
                name,
                QueuePolicy.defaults()
                    .withMaxAttempts(settings.maxAttempts())
                    .withMaxCrashes(settings.maxCrashes()))
            .queue();
    if (!queue.workflowOwned()) {
      throw new IllegalStateException(
          "activity queue \""
              + name
              + "\" exists as a plain queue; activities need a"
              + " workflow-owned queue (pick another name in ActivityOptions/ActivityRegistration)");
    }
  }
}
