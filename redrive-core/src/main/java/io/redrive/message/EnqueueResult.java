package io.redrive.message;

/**
 * The id given to an enqueued message.
 *
 * @param id the message id
 * @param duplicate true when a message with the same dedupe key was already in the queue and its id
 *     is returned instead
 */
public record EnqueueResult(String id, boolean duplicate) {}
