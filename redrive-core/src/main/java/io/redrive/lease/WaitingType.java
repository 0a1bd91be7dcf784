package io.redrive.lease;

import java.time.Instant;

/**
 * A message type with ready messages in a queue, and since when the oldest of them is ready; an
 * unserved type (docs/engine.md, "Live workers and unserved types") is one no live worker takes.
 *
 * @param queue the queue
 * @param type the message type
 * @param readySince the earliest time a ready message of the type became visible
 */
public record WaitingType(String queue, String type, Instant readySince) {}
