package io.redrive.store.workflow;

import java.time.Instant;

/**
 * One event of an execution's append-only history (docs/workflows.md); {@code data} is JSON the
 * store never reads, so a row the runtime cannot parse still leases and counts.
 *
 * @param executionId the execution
 * @param eventId its position, contiguous from 1 within the execution
 * @param kind the event kind
 * @param seq the command sequence number it belongs to, or null
 * @param name a name it carries (activity, timer purpose, event), or null
 * @param data its JSON
 * @param turn the turn that wrote it
 * @param at when that turn committed
 */
public record HistoryRow(
    int executionId,
    int eventId,
    String kind,
    Long seq,
    String name,
    String data,
    int turn,
    Instant at) {}
