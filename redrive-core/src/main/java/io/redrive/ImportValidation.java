package io.redrive;

import io.redrive.deadletter.ImportMessage;
import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.QueueNames;
import java.util.List;
import java.util.Map;

/**
 * Checks of an import batch ({@link Redrive#importMessages}): each message's fields as an enqueue's
 * are checked, named {@code messages[i].field}.
 */
final class ImportValidation {
  private ImportValidation() {}

  /** Refuses a bad import of {@code messages} into {@code queue}, checked by {@code v}. */
  static void batch(Validation v, String queue, List<ImportMessage> messages) {
    QueueNames.require("queue", queue);
    if (messages == null || messages.isEmpty()) {
      throw new IllegalArgumentException("messages: at least one message is required");
    }
    if (messages.size() > Validation.MAX_BATCH) {
      throw new IllegalArgumentException(
          "messages: an import holds at most "
              + Validation.MAX_BATCH
              + " messages, was "
              + messages.size());
    }
    for (int i = 0; i < messages.size(); i++) {
      ImportMessage m = messages.get(i);
      String at = "messages[" + i + "].";
      if (m == null) {
        throw new IllegalArgumentException(at + "message: is required");
      }
      Validation.name(at + "sourceId", m.sourceId(), true);
      if (m.sourceQueue() != null) {
        QueueNames.require(at + "sourceQueue", m.sourceQueue());
      }
      Validation.name(at + "type", m.type(), true);
      v.payload(at + "payload", m.payload());
      Validation.headers(at + "headers", m.headers() == null ? Map.of() : m.headers());
      Validation.name(at + "stream", m.stream(), false);
      if (m.priority() != null) {
        PriorityPolicy.requirePriority(at + "priority", m.priority());
      }
      Validation.name(at + "limitKey", m.limitKey(), false);
    }
  }
}
