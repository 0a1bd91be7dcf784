package io.redrive.server.ui;

import io.redrive.deadletter.DeadGroup;
import io.redrive.deadletter.Fingerprint;

/**
 * One dead-letter group as its card shows it.
 *
 * @param group the group (queue, key, count, first and last seen, sample)
 * @param pieces what grouped its messages: reason, type, exception class, normalised message, top
 *     frames
 * @param mayAct true when the viewer may retry, redrive or drop its messages
 * @param redrivable true when its queue is another queue's dead-letter queue (a redrive moves the
 *     messages back to where they came from)
 */
public record GroupCard(DeadGroup group, Fingerprint pieces, boolean mayAct, boolean redrivable) {}
