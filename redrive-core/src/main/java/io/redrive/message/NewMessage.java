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
 * @param uniqueKey held from enqueue until the message's first lease: while it waits, another
 *     enqueue with this key in the queue keeps or replaces it ({@code onDuplicate}); or null
 * @param onDuplicate what a second enqueue with the unique key does while this one waits (default
 *     {@link OnDuplicate#KEEP}; {@link OnDuplicate#REPLACE} when {@code debounce} is given)
 * @param debounce with a unique key: the message becomes visible this long after its enqueue, and
 *     each further enqueue with the key while it waits replaces it and starts the window again (so
 *     only the last enqueue of a quiet window runs); or null
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
    String limitKey,
    String uniqueKey,
    OnDuplicate onDuplicate,
    Duration debounce) {

  public NewMessage {
    headers = copyHeaders(headers);
    delay = delay == null ? Duration.ZERO : delay;
    if (priority != null) {
      PriorityPolicy.requirePriority("priority", priority);
    }
    if (onDuplicate == null) {
      onDuplicate = debounce == null ? OnDuplicate.KEEP : OnDuplicate.REPLACE;
    }
  }

  /** A message with its queue's default priority, no limit key and no unique key. */
  public NewMessage(
      String queue,
      String type,
      String payload,
      Map<String, String> headers,
      String stream,
      Duration delay,
      String dedupeKey,
      Duration expireAfter) {
    this(
        queue,
        type,
        payload,
        headers,
        stream,
        delay,
        dedupeKey,
        expireAfter,
        null,
        null,
        null,
        null,
        null);
  }

  /** This message with headers {@code value} instead of its own. */
  public NewMessage withHeaders(Map<String, String> value) {
    return new NewMessage(
        queue,
        type,
        payload,
        value,
        stream,
        delay,
        dedupeKey,
        expireAfter,
        priority,
        limitKey,
        uniqueKey,
        onDuplicate,
        debounce);
  }

  /** This message with another priority (null: the queue's default). */
  public NewMessage withPriority(Integer value) {
    return new NewMessage(
        queue,
        type,
        payload,
        headers,
        stream,
        delay,
        dedupeKey,
        expireAfter,
        value,
        limitKey,
        uniqueKey,
        onDuplicate,
        debounce);
  }

  /** This message with limit key {@code value}. */
  public NewMessage withLimitKey(String value) {
    return new NewMessage(
        queue,
        type,
        payload,
        headers,
        stream,
        delay,
        dedupeKey,
        expireAfter,
        priority,
        value,
        uniqueKey,
        onDuplicate,
        debounce);
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
    private String uniqueKey;
    private OnDuplicate onDuplicate;
    private Duration debounce;

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

    /** See {@link NewMessage#uniqueKey}. */
    public Builder uniqueKey(String value) {
      this.uniqueKey = value;
      return this;
    }

    /** See {@link NewMessage#onDuplicate}. */
    public Builder onDuplicate(OnDuplicate value) {
      this.onDuplicate = value;
      return this;
    }

    /** See {@link NewMessage#debounce}; needs {@link #uniqueKey}. */
    public Builder debounce(Duration window) {
      this.debounce = window;
      return this;
    }

    public NewMessage build() {
      return new NewMessage(
          queue,
          type,
          payload,
          headers,
          stream,
          delay,
          dedupeKey,
          expireAfter,
          priority,
          limitKey,
          uniqueKey,
          onDuplicate,
          debounce);
    }
  }
}
