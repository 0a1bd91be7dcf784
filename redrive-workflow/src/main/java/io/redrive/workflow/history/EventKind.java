package io.redrive.workflow.history;

import java.util.Set;

/** The history event kinds (docs/workflows.md), as stored in {@code redrive_wf_history.kind}. */
public final class EventKind {
  public static final String ORCHESTRATION_STARTED = "ORCHESTRATION_STARTED";
  public static final String TURN_STARTED = "TURN_STARTED";
  public static final String ACTIVITY_SCHEDULED = "ACTIVITY_SCHEDULED";
  public static final String ACTIVITY_COMPLETED = "ACTIVITY_COMPLETED";
  public static final String ACTIVITY_FAILED = "ACTIVITY_FAILED";
  public static final String TIMER_CREATED = "TIMER_CREATED";
  public static final String TIMER_FIRED = "TIMER_FIRED";
  public static final String EVENT_RAISED = "EVENT_RAISED";
  public static final String CHILD_SCHEDULED = "CHILD_SCHEDULED";
  public static final String CHILD_COMPLETED = "CHILD_COMPLETED";
  public static final String CHILD_FAILED = "CHILD_FAILED";
  public static final String PATCH_APPLIED = "PATCH_APPLIED";
  public static final String ORCHESTRATION_COMPLETED = "ORCHESTRATION_COMPLETED";
  public static final String ORCHESTRATION_FAILED = "ORCHESTRATION_FAILED";
  public static final String ORCHESTRATION_TERMINATED = "ORCHESTRATION_TERMINATED";
  public static final String CONTINUED_AS_NEW = "CONTINUED_AS_NEW";
  public static final String ORCHESTRATION_RETRIED = "ORCHESTRATION_RETRIED";

  /** Every kind. */
  public static final Set<String> ALL =
      Set.of(
          ORCHESTRATION_STARTED,
          TURN_STARTED,
          ACTIVITY_SCHEDULED,
          ACTIVITY_COMPLETED,
          ACTIVITY_FAILED,
          TIMER_CREATED,
          TIMER_FIRED,
          EVENT_RAISED,
          CHILD_SCHEDULED,
          CHILD_COMPLETED,
          CHILD_FAILED,
          PATCH_APPLIED,
          ORCHESTRATION_COMPLETED,
          ORCHESTRATION_FAILED,
          ORCHESTRATION_TERMINATED,
          CONTINUED_AS_NEW,
          ORCHESTRATION_RETRIED);

  /** The kinds code issues with a command number, matched on replay. */
  public static final Set<String> COMMANDS =
      Set.of(ACTIVITY_SCHEDULED, TIMER_CREATED, CHILD_SCHEDULED, PATCH_APPLIED);

  /** The kinds that end an execution. */
  public static final Set<String> TERMINAL =
      Set.of(
          ORCHESTRATION_COMPLETED,
          ORCHESTRATION_FAILED,
          ORCHESTRATION_TERMINATED,
          CONTINUED_AS_NEW);

  private EventKind() {}
}
