package io.redrive;

import io.redrive.deadletter.DeadGroupQuery;
import io.redrive.deadletter.DropFilter;
import io.redrive.deadletter.Fingerprint;
import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.SettleCommand;
import io.redrive.message.MessageKeys;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueueNames;
import io.redrive.queue.QueuePolicy;
import io.redrive.time.DurationText;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Input checks of the engine's public methods; each error names the field and the value. */
final class Validation {
  static final int DEFAULT_MAX_PAYLOAD_BYTES = 256 * 1024;
  static final int MAX_BATCH = 1000;
  static final int MAX_NAME = MessageKeys.MAX_LENGTH;
  static final int MAX_HEADERS = 64;
  static final int MAX_HEADER_VALUE = 4096;
  static final int MAX_ERROR_MESSAGE = 4096;
  static final int MAX_STACK_TRACE = 8000;
  static final char REPLACEMENT = '\uFFFD'; // what failure text shows instead of a NUL character

  static final Duration MAX_DELAY = Duration.ofDays(365);
  static final Set<FailureReason> ASSIGNED_BY_REDRIVE =
      Set.of(FailureReason.POISON, FailureReason.EXPIRED, FailureReason.LEASE_EXPIRED);

  private final int maxPayloadBytes;

  int maxPayloadBytes() {
    return maxPayloadBytes;
  }

  Validation(int maxPayloadBytes) {
    this.maxPayloadBytes = maxPayloadBytes;
  }

  /**
   * Refuses a missing or empty list ("{@code field}: at least one {@code item} is required") and
   * one longer than {@code max}.
   */
  static void sized(String field, String item, List<?> list, int max) {
    if (list == null || list.isEmpty()) {
      throw new IllegalArgumentException(field + ": at least one " + item + " is required");
    }
    if (list.size() > max) {
      throw new IllegalArgumentException(
          field + ": at most " + max + " per call, was " + list.size());
    }
  }

  void batch(List<NewMessage> messages) {
    if (messages == null || messages.isEmpty()) {
      throw new IllegalArgumentException("messages: at least one message is required");
    }
    if (messages.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          "messages: a batch holds at most " + MAX_BATCH + " messages, was " + messages.size());
    }
    for (int i = 0; i < messages.size(); i++) {
      message(messages.size() == 1 ? "" : "messages[" + i + "].", messages.get(i));
    }
  }

  private void message(String at, NewMessage m) {
    if (m == null) {
      throw new IllegalArgumentException(at + "message: is required");
    }
    QueueNames.require(at + "queue", m.queue());
    name(at + "type", m.type(), true);
    payload(at + "payload", m.payload());
    headers(at + "headers", m.headers());
    name(at + "stream", m.stream(), false);
    name(at + "limitKey", m.limitKey(), false);
    UniqueValidation.keys(at, m);
    delay(at + "delay", m.delay());
    if (m.expireAfter() != null && (m.expireAfter().isNegative() || m.expireAfter().isZero())) {
      throw new IllegalArgumentException(
          at + "expireAfter: must be positive, was " + DurationText.format(m.expireAfter()));
    }
  }

  /** A handler's result: JSON no larger than a payload (the store checks that it is JSON). */
  void result(String result) {
    if (result == null) {
      throw new IllegalArgumentException("result: is required");
    }
    payload("result", result);
  }

  void payload(String field, String payload) {
    if (payload == null) {
      throw new IllegalArgumentException(field + ": is required (use \"\" for none)");
    }
    noNul(field, payload);
    // A char is at most 3 UTF-8 bytes; only count exactly when it could matter.
    if ((long) payload.length() * 3 > maxPayloadBytes) {
      int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > maxPayloadBytes) {
        throw new PayloadTooLargeException(field, bytes, maxPayloadBytes);
      }
    }
  }

  static void headers(String field, Map<String, String> headers) {
    if (headers.size() > MAX_HEADERS) {
      throw new IllegalArgumentException(
          field + ": at most " + MAX_HEADERS + " headers, was " + headers.size());
    }
    for (var e : headers.entrySet()) {
      name(field + " key", e.getKey(), true);
      if (e.getValue() == null) {
        throw new IllegalArgumentException(field + "[" + e.getKey() + "]: value is required");
      }
      noNul(field + "[" + e.getKey().replace('\0', REPLACEMENT) + "]", e.getValue());
      if (e.getValue().length() > MAX_HEADER_VALUE) {
        throw new IllegalArgumentException(
            field + "[" + e.getKey() + "]: value longer than " + MAX_HEADER_VALUE + " characters");
      }
    }
  }

  static String name(String field, String value, boolean required) {
    if (value == null) {
      if (required) {
        throw new IllegalArgumentException(field + ": is required");
      }
      return null;
    }
    return MessageKeys.require(field, value);
  }

  static Duration delay(String field, Duration delay) {
    if (delay == null) {
      return Duration.ZERO;
    }
    if (delay.isNegative()) {
      throw new IllegalArgumentException(
          field + ": must not be negative, was " + DurationText.format(delay));
    }
    if (delay.compareTo(MAX_DELAY) > 0) {
      throw new IllegalArgumentException(
          field + ": at most 365d, was " + DurationText.format(delay));
    }
    return delay;
  }

  static String id(String field, String id) {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException(field + ": message id is required");
    }
    if (id.length() > MAX_NAME) {
      throw new IllegalArgumentException(field + ": longer than " + MAX_NAME + " characters");
    }
    noNul(field, id);
    return id;
  }

  void ids(List<String> ids) {
    sized("ids", "message id", ids, 100_000);
    for (String id : ids) {
      id("ids", id);
    }
  }

  void lease(LeaseRequest r) {
    if (r == null) {
      throw new IllegalArgumentException("request: is required");
    }
    QueueNames.require("queue", r.queue());
    name("worker", r.worker(), true);
    if (r.max() < 1 || r.max() > LeaseRequest.MAX_BATCH) {
      throw new IllegalArgumentException(
          "max: must be between 1 and " + LeaseRequest.MAX_BATCH + ", was " + r.max());
    }
    if (r.leaseTimeout() != null) {
      QueuePolicy.requireLeaseTimeout(r.leaseTimeout());
    }
    if (r.types().size() > LeaseRequest.MAX_TYPES) {
      throw new IllegalArgumentException(
          "types: at most " + LeaseRequest.MAX_TYPES + " per lease, was " + r.types().size());
    }
    int i = 0;
    for (String type : r.types()) {
      name("types[" + i++ + "]", type, true);
    }
  }

  void fail(FailRequest r) {
    if (r == null) {
      throw new IllegalArgumentException("request: is required");
    }
    failure(r.reason(), r.retryAfter());
  }

  void fail(SettleCommand.Fail f) {
    failure(f.reason(), f.retryAfter());
  }

  private static void failure(FailureReason reason, Duration retryAfter) {
    if (reason == null) {
      throw new IllegalArgumentException("reason: is required");
    }
    if (ASSIGNED_BY_REDRIVE.contains(reason)) {
      throw new IllegalArgumentException(
          "reason: " + reason + " is assigned by Redrive and cannot be reported by a caller");
    }
    if (retryAfter != null) {
      delay("retryAfter", retryAfter);
    }
  }

  static FailureReason abandonReason(FailureReason reason) {
    if (reason != null && ASSIGNED_BY_REDRIVE.contains(reason)) {
      throw new IllegalArgumentException(
          "reason: " + reason + " is assigned by Redrive and cannot be reported by a caller");
    }
    return reason;
  }

  void query(MessageQuery q) {
    if (q == null) {
      throw new IllegalArgumentException("query: is required");
    }
    QueueNames.require("queue", q.queue());
    if (q.limit() < 1 || q.limit() > MessageQuery.MAX_LIMIT) {
      throw new IllegalArgumentException(
          "limit: must be between 1 and " + MessageQuery.MAX_LIMIT + ", was " + q.limit());
    }
    name("stream", q.stream(), false);
    name("type", q.type(), false);
    name("dedupeKey", q.dedupeKey(), false);
    fingerprint(q.fingerprint());
    if (q.minAttempts() < 0) {
      throw new IllegalArgumentException(
          "minAttempts: must be 0 (any) or more, was " + q.minAttempts());
    }
    if (q.after() != null) {
      id("after", q.after());
    }
  }

  void redrive(RedriveRequest r) {
    if (r == null) {
      throw new IllegalArgumentException("request: is required");
    }
    QueueNames.require("from", r.from());
    if (r.to() != null) {
      QueueNames.require("to", r.to());
    }
    if (r.limit() < 1 || r.limit() > RedriveRequest.MAX_LIMIT) {
      throw new IllegalArgumentException(
          "limit: must be between 1 and " + RedriveRequest.MAX_LIMIT + ", was " + r.limit());
    }
    if (r.deadSince() != null
        && r.deadBefore() != null
        && !r.deadSince().isBefore(r.deadBefore())) {
      throw new IllegalArgumentException(
          "deadSince: must be before deadBefore (" + r.deadSince() + " >= " + r.deadBefore() + ")");
    }
    fingerprint(r.fingerprint());
    if (r.ids() != null) {
      if (r.ids().size() > 1000) {
        throw new IllegalArgumentException("ids: at most 1000, was " + r.ids().size());
      }
      for (String id : r.ids()) {
        if (id == null || id.isBlank()) {
          throw new IllegalArgumentException("ids: an id must not be blank");
        }
      }
    }
  }

  void deadGroups(DeadGroupQuery q) {
    if (q == null) {
      throw new IllegalArgumentException("query: is required");
    }
    if (q.queues() != null) {
      for (String queue : q.queues()) {
        QueueNames.require("queue", queue);
      }
    }
    if (q.limit() < 1 || q.limit() > DeadGroupQuery.MAX_LIMIT) {
      throw new IllegalArgumentException(
          "limit: must be between 1 and " + DeadGroupQuery.MAX_LIMIT + ", was " + q.limit());
    }
    if (q.offset() < 0) {
      throw new IllegalArgumentException("offset: must be 0 or more, was " + q.offset());
    }
  }

  private static void fingerprint(String value) {
    if (value != null) {
      Fingerprint.requireKey("fingerprint", value);
    }
  }

  void dropFilter(DropFilter f) {
    if (f == null) {
      throw new IllegalArgumentException("filter: is required");
    }
    QueueNames.require("queue", f.queue());
    if (f.limit() < 1 || f.limit() > 100_000) {
      throw new IllegalArgumentException("limit: must be between 1 and 100000, was " + f.limit());
    }
    if (f.states() != null && f.states().contains(io.redrive.message.MessageState.LEASED)) {
      throw new IllegalArgumentException(
          "states: leased messages cannot be dropped by filter; drop them by id");
    }
    name("type", f.type(), false);
    fingerprint(f.fingerprint());
  }

  void importBatch(String queue, List<ImportMessage> messages) {
    ImportValidation.batch(this, queue, messages);
  }

  void deadLetterNotSelf(String name, QueuePolicy policy) {
    DeadLetter dl = policy.deadLetter();
    if (dl.mode() == DeadLetter.Mode.MOVE && name.equals(dl.queue())) {
      throw selfDeadLetter(name);
    }
  }

  static IllegalArgumentException selfDeadLetter(String name) {
    return new IllegalArgumentException(
        "deadLetterQueue: queue \"" + name + "\" cannot be its own dead-letter queue");
  }

  /**
   * Failure text (a failure's message or stack trace, an abandon note) cut to {@code max}
   * characters, with each NUL replaced by U+FFFD: a failure is never refused for its text (the
   * report would be lost) and PostgreSQL's text type cannot hold NUL.
   */
  static String bounded(String text, int max) {
    if (text == null) {
      return null;
    }
    String clean = text.replace('\0', REPLACEMENT);
    if (clean.length() <= max) {
      return clean;
    }
    return clean.substring(0, max) + "... (" + (clean.length() - max) + " more characters cut)";
  }

  /**
   * Refuses a NUL character (U+0000) in an accepted string: neither store can keep it faithfully
   * (PostgreSQL's text type rejects it), so it is bad input naming the field, not a store error.
   */
  static void noNul(String field, String value) {
    MessageKeys.requireNoNul(field, value);
  }
}
