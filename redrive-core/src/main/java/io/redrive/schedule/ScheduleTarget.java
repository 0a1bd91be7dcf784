package io.redrive.schedule;

import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.QueueNames;
import java.time.Duration;
import java.util.Map;

/**
 * What a schedule produces at each due time: a message ({@link Message}) or the start of a workflow
 * instance ({@link Workflow}). Immutable and thread-safe.
 */
public sealed interface ScheduleTarget {

  /** A message to {@code queue} of {@code type} with {@code payload} and no other options. */
  static Message message(String queue, String type, String payload) {
    return new Message(queue, type, payload, Map.of(), null, null);
  }

  /** A start of orchestration {@code name} with {@code input} (JSON text, or null). */
  static Workflow workflow(String name, String input) {
    return new Workflow(name, input, null);
  }

  /**
   * A message. Its dedupe key and delay are the schedule's: {@code schedule:<name>:<due epoch ms>}
   * and the jitter. The engine checks the rest like an enqueue when the schedule is saved.
   *
   * @param queue the queue it goes to
   * @param type its handler name
   * @param payload its body ("" for none)
   * @param headers its headers, to which the firing adds {@code redrive-schedule} and {@code
   *     redrive-schedule-due}
   * @param stream its ordering key, or null
   * @param expireAfter its deadline after it is produced, or null for the queue's
   * @param priority its priority, 0–9, or null for the queue's default
   * @param limitKey the key the queue's flow limits count it under, or null
   */
  record Message(
      String queue,
      String type,
      String payload,
      Map<String, String> headers,
      String stream,
      Duration expireAfter,
      Integer priority,
      String limitKey)
      implements ScheduleTarget {
    public Message {
      QueueNames.require("target.queue", queue);
      if (type == null || type.isEmpty()) {
        throw new IllegalArgumentException("target.type: is required");
      }
      payload = payload == null ? "" : payload;
      headers = headers == null ? Map.of() : Map.copyOf(headers);
      if (priority != null) {
        PriorityPolicy.requirePriority("target.priority", priority);
      }
    }

    /** A message of the queue's default priority and without a limit key. */
    public Message(
        String queue,
        String type,
        String payload,
        Map<String, String> headers,
        String stream,
        Duration expireAfter) {
      this(queue, type, payload, headers, stream, expireAfter, null, null);
    }
  }

  /**
   * A workflow start. The instance id is {@code <schedule name>-<due epoch ms>}, so a second start
   * for the same due time finds the instance the first one made.
   *
   * @param name the orchestration's name
   * @param input its input as JSON text, or null
   * @param version the version to start, or null for the runtime's default
   */
  record Workflow(String name, String input, String version) implements ScheduleTarget {
    public Workflow {
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("target.name: orchestration name is required");
      }
    }
  }
}
