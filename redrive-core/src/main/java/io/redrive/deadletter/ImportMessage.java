package io.redrive.deadletter;

import java.util.Map;

/**
 * A message brought in from elsewhere (another system or a backup), keyed by its original id: a
 * second import of the same {@code sourceId} into the same queue is a silent no-op.
 *
 * @param sourceId the id it had where it came from (required)
 * @param sourceQueue the queue it came from, or null
 * @param type handler name
 * @param payload body
 * @param headers headers
 * @param stream ordering key, or null
 * @param dead true to import it as DEAD (e.g. restoring a dead-letter queue), false as READY
 * @param priority 0–9, as a {@link io.redrive.message.NewMessage}'s; null takes the queue's default
 * @param limitKey the key the queue's flow limits count it under, or null
 */
public record ImportMessage(
    String sourceId,
    String sourceQueue,
    String type,
    String payload,
    Map<String, String> headers,
    String stream,
    boolean dead,
    Integer priority,
    String limitKey) {

  /** A message imported with its queue's default priority and no limit key. */
  public ImportMessage(
      String sourceId,
      String sourceQueue,
      String type,
      String payload,
      Map<String, String> headers,
      String stream,
      boolean dead) {
    this(sourceId, sourceQueue, type, payload, headers, stream, dead, null, null);
  }
}
