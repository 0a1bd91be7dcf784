package io.redrive.workflow.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;

/**
 * The runtime's Micrometer meters (docs/workflows.md, "Observability"). Thread-safe. Activity
 * messages keep the worker's own {@code redrive.worker.*} meters.
 */
public final class WorkflowMetrics {
  private final MeterRegistry registry;

  public WorkflowMetrics(MeterRegistry registry) {
    this.registry = registry == null ? new SimpleMeterRegistry() : registry;
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** One turn ended: committed (COMMITTED) or how it was abandoned. */
  public void turn(String name, String outcome, Duration took) {
    Counter.builder("redrive.workflow.turns")
        .tag("name", name == null ? "unknown" : name)
        .tag("outcome", outcome)
        .register(registry)
        .increment();
    Timer.builder("redrive.workflow.turn.duration").register(registry).record(took);
  }

  /**
   * A lease asked the history cache ({@code result} hit or miss), or a turn decided from a copy had
   * to be decided again from the stored history (fallback).
   */
  public void historyCache(String result) {
    Counter.builder("redrive.workflow.history.cache")
        .tag("result", result)
        .register(registry)
        .increment();
  }

  /** An orchestration or activity was poisoned ({@code level} orchestration or activity). */
  public void poisoned(String level) {
    Counter.builder("redrive.workflow.poisoned").tag("level", level).register(registry).increment();
  }

  /** A turn found no code for its orchestration. */
  public void unregistered(String level, String name) {
    Counter.builder("redrive.workflow.unregistered")
        .tag("level", level)
        .tag("name", name)
        .register(registry)
        .increment();
  }

  /** A replay did not match its history. */
  public void nondeterminism(String name, String version) {
    Counter.builder("redrive.workflow.nondeterminism")
        .tag("name", name)
        .tag("version", version == null ? "unresolved" : version)
        .register(registry)
        .increment();
  }

  /** Inbox rows dropped because their execution or command was gone. */
  public void staleResults(int count) {
    if (count > 0) {
      Counter.builder("redrive.workflow.stale.results").register(registry).increment(count);
    }
  }

  /** An execution's history size after a commit. */
  public void historyEvents(int events) {
    DistributionSummary.builder("redrive.workflow.history.events")
        .register(registry)
        .record(events);
  }
}
