package io.redrive.message;

import io.redrive.queue.PriorityPolicy;
import java.time.Duration;
import java.util.Map;

/**
 * A message to enqueue. Build with {@link #builder(String, String)}.
 *
 * @param queue target queue
 * @param type handler name
 * @param payload body (any text, usually JSON)
 * @param headers string headers (may be empty)
 * @param stream ordering key, or null
 * @param delay how long before it becomes visible (zero for now)
 * @param dedupeKey while a message with this key is in the queue (and for the engine's completion
 *     window after it completed), enqueueing another returns the first one's id; or null
 * @param expireAfter deadline after enqueue overriding the queue's {@code expireAfter}, or null
 * @param priority 0–9, higher served first ({@link io.redrive.queue.PriorityPolicy}); null takes
 *     the queue's {@code defaultPriority}
 * @param limitKey the key the queue's flow limits count it under (a tenant, a user, a host), or
 *     null: it then counts toward the queue-wide limits only
 */
public record NewMessage(
    String queue,
    String type,
    String payload,
    Map<String, String> headers,
    String stream,
    Duration delay,
    String dedupeKey,
    Duration expireAfter,
    Integer priority,
    String limitKey) {

  public NewMessage {
    headers = copyHeaders(headers);
    delay = delay == null ? Duration.ZERO : delay;
    if (priority != null) {
      PriorityPolicy.requirePriority("priority", priority);
    }
  }

  /** A message with its queue's default priority and no limit key. */
  public NewMessage(
      String queue,
      String type,
      String payload,
      Map<String, String> headers,
      String stream,
      Duration delay,
      String dedupeKey,
      Duration expireAfter) {
    this(queue, type, payload, headers, stream, delay, dedupeKey, expireAfter, null, null);
  }

  /** This message with another priority (null: the queue's default). */
  public NewMessage withPriority(Integer value) {
    return new NewMessage(
        queue, type, payload, headers, stream, delay, dedupeKey, expireAfter, value, limitKey);
  }

  /** This message with limit key {@code value}. */
  public NewMessage withLimitKey(String value) {
    return new NewMessage(
        queue, type, payload, headers, stream, delay, dedupeKey, expireAfter, priority, value);
  }

  private static Map<String, String> copyHeaders(Map<String, String> headers) {
    if (headers == null) {
      return Map.of();
    }
    for (Map.Entry<String, String> e : headers.entrySet()) {
      if (e.getKey() == null) {
        throw new IllegalArgumentException("headers: a header name is null");
      }
      if (e.getValue() == null) {
        throw new IllegalArgumentException("headers[" + e.getKey() + "]: value is required");
      }
    }
    return Map.copyOf(headers);
  }

  public static Builder builder(String queue, String type) {
    return new Builder(queue, type);
  }

  /** Builder of {@link NewMessage}; not thread-safe. */
  public static final class Builder {
    private final String queue;
    private final String type;
    private String payload = "";
    private Map<String, String> headers = Map.of();
    private String stream;
    private Duration delay = Duration.ZERO;
    private String dedupeKey;
    private Duration expireAfter;
    private Integer priority;
    private String limitKey;

    private Builder(String queue, String type) {
      this.queue = queue;
      this.type = type;
    }

    public Builder payload(String value) {
      this.payload = value;
      return this;
    }

    public Builder headers(Map<String, String> value) {
      this.headers = value;
      return this;
    }

    public Builder stream(String value) {
      this.stream = value;
      return this;
    }

    public Builder delay(Duration value) {
      this.delay = value;
      return this;
    }

    public Builder dedupeKey(String value) {
      this.dedupeKey = value;
      return this;
    }

    public Builder expireAfter(Duration value) {
      this.expireAfter = value;
      return this;
    }

    /** 0–9, higher served first; null (the default) takes the queue's {@code defaultPriority}. */
    public Builder priority(Integer value) {
      this.priority = value;
      return this;
    }

    /** The key the queue's flow limits count this message under (same rules as a stream). */
    public Builder limitKey(String value) {
      this.limitKey = value;
      return this;
    }

    public NewMessage build() {
      return new NewMessage(
          queue, type, payload, headers, stream, delay, dedupeKey, expireAfter, priority, limitKey);
    }
  }
}
