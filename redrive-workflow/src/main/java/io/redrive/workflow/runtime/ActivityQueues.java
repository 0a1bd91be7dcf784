package io.redrive.workflow.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.Redrive;
import io.redrive.internal.workflow.WorkflowStores;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.Worker;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.WorkflowRegistry;
import java.time.Duration;
import java.util.Optional;

/**
 * Makes the activity queues a runtime uses exist, workflow-owned, at its start, and starts the
 * worker of each that the registry has activities on.
 */
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

  /**
   * Starts the worker of {@code queue} for the activities {@code registry} registers on it (none:
   * no worker); it leases only those types, since other nodes and HTTP workers may serve others.
   */
  public static Optional<Worker> startWorker(
      Redrive redrive,
      WorkflowRegistry registry,
      String queue,
      RuntimeSettings settings,
      Duration leaseTimeout,
      ObjectMapper mapper,
      MeterRegistry meters) {
    Worker.Builder wb =
        Worker.builder(redrive, queue)
            .id(settings.nodeId() + "/" + queue)
            .concurrency(settings.activityConcurrency())
            .unregisteredBackoff(settings.unregisteredBackoff())
            .pollInterval(Duration.ofMillis(5), settings.pollInterval())
            .leaseTimeout(leaseTimeout)
            .leaseOnlyHandledTypes(true)
            .meterRegistry(meters);
    int handlers = 0;
    for (String name : registry.activityNames()) {
      ActivityRegistration r = registry.activity(name).orElseThrow();
      if (r.queue().equals(queue)) {
        wb.handler(ActivityHandler.registration(r, mapper));
        handlers++;
      }
    }
    return handlers == 0 ? Optional.empty() : Optional.of(wb.build().start());
  }
}
