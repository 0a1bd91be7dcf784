package io.redrive.server.auth;

import io.redrive.schedule.ScheduleTarget;
import java.util.List;

/**
 * Who made a request: the key's name (never the secret), its role and the queue and orchestration
 * patterns it is limited to (empty: every one); {@code anonymous} when the server runs without keys
 * (loopback only).
 */
public record Principal(
    String name, Role role, boolean anonymous, List<String> queues, List<String> workflows) {
  public Principal {
    queues = queues == null ? List.of() : List.copyOf(queues);
    workflows = workflows == null ? List.of() : List.copyOf(workflows);
  }

  /** A principal with access to every orchestration. */
  public Principal(String name, Role role, boolean anonymous, List<String> queues) {
    this(name, role, anonymous, queues, List.of());
  }

  /** A principal with access to every queue. */
  public Principal(String name, Role role, boolean anonymous) {
    this(name, role, anonymous, List.of());
  }

  /** The principal of every request when no keys are configured. */
  public static Principal anonymousAdmin() {
    return new Principal("anonymous", Role.ADMIN, true, List.of(), List.of());
  }

  /**
   * True when this principal's queue scope includes {@code queue}, e.g. to filter {@code GET
   * /v1/queues}. The role is not checked here.
   */
  public boolean mayAccess(String queue) {
    return queues.isEmpty() || QueuePatterns.matchesAny(queues, queue);
  }

  /**
   * True when this principal's orchestration scope includes {@code name} (the role is not checked
   * here).
   */
  public boolean mayAccessWorkflow(String name) {
    return workflows.isEmpty() || QueuePatterns.matchesAny(workflows, name);
  }

  /**
   * True when this principal's scope includes what a schedule produces: a message target's queue
   * (the {@code queues} scope) or a workflow target's orchestration (the {@code workflows} scope,
   * as starting it directly would need). The role is not checked here.
   */
  public boolean mayAccess(ScheduleTarget target) {
    return target instanceof ScheduleTarget.Message m
        ? mayAccess(m.queue())
        : mayAccessWorkflow(((ScheduleTarget.Workflow) target).name());
  }
}
