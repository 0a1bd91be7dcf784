package io.redrive.workflow.replay;

/**
 * Where a replay stopped fitting its history (docs/workflows.md, "Nondeterminism detection").
 *
 * @param eventId the history event that did not fit: the recorded command, or a completion
 * @param command the command number
 * @param expected what history has there, e.g. {@code ACTIVITY_SCHEDULED charge}
 * @param actual what the code did instead, e.g. {@code ACTIVITY_SCHEDULED refund} or {@code nothing
 *     (it completed)}
 */
public record Mismatch(int eventId, long command, String expected, String actual) {}
