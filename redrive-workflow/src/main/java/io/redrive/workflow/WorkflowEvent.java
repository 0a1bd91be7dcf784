package io.redrive.workflow;

import java.time.Instant;

/**
 * One event of an execution's append-only history (docs/workflows.md, "History event kinds"), as
 * stored: its {@code data} is JSON text, so an event no code can read any more is still shown.
 *
 * @param eventId its position, contiguous from 1 within the execution
 * @param executionId the execution it belongs to
 * @param kind the event kind, such as {@code ACTIVITY_SCHEDULED}
 * @param seq the command number it belongs to, or null
 * @param name a name it carries (activity, timer purpose, event), or null
 * @param data its JSON
 * @param turn the turn that wrote it
 * @param at when that turn committed
 */
public record WorkflowEvent(
    int eventId,
    int executionId,
    String kind,
    Long seq,
    String name,
    String data,
    int turn,
    Instant at) {}
