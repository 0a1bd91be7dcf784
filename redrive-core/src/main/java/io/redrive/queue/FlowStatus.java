package io.redrive.queue;

import java.time.Instant;

/**
 * Where a queue stands against its flow limits now (the dashboard's queue page).
 *
 * @param running messages leased now with a lease that has not run out
 * @param keysAtCap limit keys running as many messages as {@code maxRunningPerKey} allows (0 when
 *     the queue has no per-key cap)
 * @param keysHeld limit keys held by a slow-down now
 * @param queueHeldUntil until when a slow-down of a message without a key holds the whole queue, or
 *     null
 */
public record FlowStatus(int running, int keysAtCap, int keysHeld, Instant queueHeldUntil) {}
