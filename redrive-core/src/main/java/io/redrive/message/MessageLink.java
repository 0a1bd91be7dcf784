package io.redrive.message;

/**
 * One message as a link of a lineage: its id and queue, its state as stored (READY, LEASED or DEAD;
 * a READY message not yet visible is not told apart here), and where it was copied from.
 *
 * @param sourceId the id of the message it is a copy of (a dead-letter move, an import), or null
 * @param sourceQueue the queue that message was in, or null
 * @param originId on a dead-letter copy, the first id of its story (the one the enqueue returned),
 *     however many moves ago; null on an original
 */
public record MessageLink(
    String id,
    String queue,
    MessageState state,
    String sourceId,
    String sourceQueue,
    String originId,
    String originQueue) {}
