package io.redrive.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.Redrive;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.function.Supplier;
import org.springframework.context.SmartLifecycle;

/**
 * Runs a {@link WorkflowRuntime} for the application's orchestrations and activities (its own
 * {@link WorkflowRegistry} bean, or the {@link RedriveOrchestration} and {@link RedriveActivity}
 * beans) from the end of the context's start until its stop, which lets running turns and
 * activities finish within the shutdown grace.
 */
final class RedriveWorkflowRuntime implements SmartLifecycle {
  private final Redrive redrive;
  private final Supplier<WorkflowRegistry> registry;
  private final RedriveProperties.Workflows settings;
  private final MeterRegistry meterRegistry;
  private final Duration grace;
  private WorkflowRuntime runtime;

  RedriveWorkflowRuntime(
      Redrive redrive,
      Supplier<WorkflowRegistry> registry,
      RedriveProperties.Workflows settings,
      MeterRegistry meterRegistry,
      Duration grace) {
    this.redrive = redrive;
    this.registry = registry;
    this.settings = settings;
    this.meterRegistry = meterRegistry;
    this.grace = settings.getShutdownGrace() != null ? settings.getShutdownGrace() : grace;
  }

  @Override
  public synchronized void start() {
    WorkflowRegistry found = registry.get();
    if (runtime != null || found == null) {
      return; // no orchestration nor activity: no runtime
    }
    WorkflowRuntime.Builder b = WorkflowRuntime.builder(redrive, found);
    if (settings.getOrchestrationConcurrency() != null) {
      b.orchestrationConcurrency(settings.getOrchestrationConcurrency());
    }
    if (settings.getActivityConcurrency() != null) {
      b.activityConcurrency(settings.getActivityConcurrency());
    }
    if (meterRegistry != null) {
      b.meterRegistry(meterRegistry);
    }
    runtime = b.build().start();
  }

  @Override
  public void stop() {
    WorkflowRuntime stopping;
    synchronized (this) {
      stopping = runtime;
      runtime = null;
    }
    if (stopping != null) {
      stopping.stop(grace);
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return runtime != null;
  }

  /** The runtime while it runs, else null (the health indicator, tests). */
  synchronized WorkflowRuntime runtime() {
    return runtime;
  }
}
