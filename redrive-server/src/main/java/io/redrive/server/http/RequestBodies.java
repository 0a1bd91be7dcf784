package io.redrive.server.http;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.message.OnDuplicate;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The request bodies of the API, one record per body as docs/api.md names its fields. Jackson
 * refuses any other field; values are checked when converted, with errors naming the field.
 */
final class RequestBodies {
  /** The queue name rule of {@link io.redrive.queue.QueueNames}, for the OpenAPI document. */
  static final String QUEUE_NAME = "^[A-Za-z0-9._-]{1,200}$";

  /** A dead-letter group's key ({@link io.redrive.deadletter.Fingerprint#key()}). */
  static final String FINGERPRINT = "^[0-9a-f]{16}$";

  private RequestBodies() {}

  /** {@code POST /v1/queues/{name}/messages}. */
  record EnqueueBody(
      @ApiField(required = true, minItems = 1, maxItems = 1000) List<NewMessageBody> messages) {}

  /** One message to enqueue; only {@code type} is required. */
  record NewMessageBody(
      @ApiField(required = true, maxLength = 200) String type,
      @ApiField(nullable = true, description = "any JSON value, stored and returned as written")
          RawJson payload,
      @ApiField(maxItems = 64) Map<String, String> headers,
      @ApiField(maxLength = 200) String stream,
      @ApiField(format = "duration", description = "at most 365d") String delay,
      @ApiField(maxLength = 200) String dedupeKey,
      @ApiField(format = "duration") String expireAfter,
      @ApiField(
              min = 0,
              max = 9,
              description = "higher is served first; absent takes the queue's defaultPriority")
          Integer priority,
      @ApiField(maxLength = 200, description = "the key the queue's flow limits count it under")
          String limitKey,
      @ApiField(maxLength = 200, description = "held until the message's first lease")
          String uniqueKey,
      @ApiField(
              values = {"keep", "replace"},
              description = "what a second enqueue with the uniqueKey does while this one waits")
          String onDuplicate,
      @ApiField(format = "duration", description = "1ms to 30d; needs uniqueKey")
          String debounce) {}

  /**
   * {@code POST /v1/leases/{token}/complete}; optional. {@code result} is kept only by a
   * workflow-owned queue, whose instance receives it.
   */
  record CompleteBody(@ApiField(min = 0) Long progress, RawJson result) {

    /** The result's JSON text, or null for none (absent or JSON {@code null}). */
    String resultJson() {
      return RawJson.textOrNull(result);
    }
  }

  /** {@code POST /v1/leases/{token}/fail}; only {@code reason} is required. */
  record FailBody(
      @ApiField(
              required = true,
              description =
                  "a failure reason; POISON, EXPIRED and LEASE_EXPIRED"
                      + " are assigned by Redrive and refused")
          String reason,
      @JsonDeserialize(using = JsonCodec.FailureText.class) String message,
      Boolean retryable,
      @ApiField(format = "duration") String retryAfter,
      @ApiField(min = 0) Long progress,
      @JsonDeserialize(using = JsonCodec.FailureText.class) String stackTrace,
      @ApiField(
              maxLength = 200,
              description =
                  "what the attempt failed against (smtp, a host); on a queue with a circuit"
                      + " breaker it counts toward that dependency's circuit")
          String dependency) {}

  /**
   * {@code POST /v1/leases/{token}/abandon}; optional. {@code slowDown} (alone) gives the lease
   * back with its attempt refunded and holds the message's limit key (or its queue) that long.
   */
  record AbandonBody(
      @ApiField(format = "duration") String delay,
      Boolean refund,
      @JsonDeserialize(using = JsonCodec.FailureText.class) String note,
      @ApiField(
              format = "duration",
              description =
                  "slow down: visible again after it, attempt refunded, and its limit key (or its"
                      + " queue) held as long; not with delay, refund or note")
          String slowDown) {}

  /** {@code POST /v1/leases/{token}/renew}; optional. */
  record RenewBody(@ApiField(format = "duration") String leaseTimeout) {}

  /** {@code POST /v1/leases/release}. */
  record ReleaseBody(
      @ApiField(required = true, minItems = 1, maxItems = LeaseRequest.MAX_BATCH)
          List<String> tokens) {}

  /** {@code POST /v1/leases/settle}: up to 1000 settles of any kinds in one transaction. */
  record SettleBody(
      @ApiField(required = true, minItems = 1, maxItems = LeaseRequest.MAX_BATCH)
          List<SettleItemBody> settles) {}

  /**
   * One settle of {@link SettleBody}: {@code action} says which, and only that action's fields may
   * be given ({@code reason}, {@code message}, {@code retryable}, {@code retryAfter}, {@code
   * progress}, {@code stackTrace} for fail; {@code delay}, {@code refund}, {@code note} for
   * abandon; {@code result} for complete, kept only by a workflow-owned queue).
   */
  record SettleItemBody(
      @ApiField(required = true) String token,
      @ApiField(
              required = true,
              values = {"complete", "fail", "abandon", "release"})
          String action,
      @ApiField(description = "fail: a failure reason, required") String reason,
      @ApiField(description = "fail only") @JsonDeserialize(using = JsonCodec.FailureText.class)
          String message,
      @ApiField(description = "fail only") Boolean retryable,
      @ApiField(format = "duration", description = "fail only") String retryAfter,
      @ApiField(min = 0, description = "fail only") Long progress,
      @ApiField(description = "fail only") @JsonDeserialize(using = JsonCodec.FailureText.class)
          String stackTrace,
      @ApiField(format = "duration", description = "abandon only") String delay,
      @ApiField(description = "abandon only") Boolean refund,
      @ApiField(description = "abandon only") @JsonDeserialize(using = JsonCodec.FailureText.class)
          String note,
      @ApiField(description = "complete only: kept by a workflow-owned queue for its instance")
          RawJson result,
      @ApiField(
              format = "duration",
              description =
                  "abandon only, alone: slow down (attempt refunded, limit key or queue held)")
          String slowDown) {}

  /** {@code POST /v1/messages/retry} and {@code /drop}: ids or unique prefixes. */
  record IdsBody(@ApiField(required = true, minItems = 1, maxItems = 100_000) List<String> ids) {}

  /** {@code POST /v1/queues/{name}/drop}. */
  record DropBody(
      @ApiField(values = {"READY", "SCHEDULED", "LEASED", "DEAD"}) List<String> states,
      String type,
      String deadReason,
      @ApiField(pattern = FINGERPRINT, description = "only dead messages of this dead-letter group")
          String fingerprint,
      @ApiField(min = 1, max = 100_000) Integer limit) {}

  /** {@code POST /v1/queues/{name}/redrive}. */
  record RedriveBody(
      @ApiField(pattern = QUEUE_NAME, maxLength = 200) String to,
      List<String> deadReasons,
      List<String> types,
      Instant deadSince,
      Instant deadBefore,
      @ApiField(pattern = FINGERPRINT, description = "only dead messages of this dead-letter group")
          String fingerprint,
      @ApiField(maxItems = 1000, description = "only these messages (ids in this queue)")
          List<String> ids,
      @ApiField(min = 1, max = RedriveRequest.MAX_LIMIT) Integer limit,
      Boolean dryRun,
      @ApiField(
              values = {"original", "end"},
              description =
                  "where messages of a stream go among its waiting messages (default original)")
          String position) {}

  /** {@code POST /v1/queues/{name}/import}. */
  record ImportBody(
      @ApiField(required = true, minItems = 1, maxItems = 1000) List<ImportMessageBody> messages) {}

  /** One message to import, keyed by {@code sourceId}. */
  record ImportMessageBody(
      @ApiField(required = true) String sourceId,
      String sourceQueue,
      @ApiField(required = true, maxLength = 200) String type,
      @ApiField(nullable = true) RawJson payload,
      Map<String, String> headers,
      String stream,
      Boolean dead,
      @ApiField(
              min = 0,
              max = 9,
              description = "higher is served first; the queue's default if absent")
          Integer priority,
      @ApiField(maxLength = 200, description = "the key the queue's flow limits count it under")
          String limitKey) {}

  static Duration duration(String field, String text) {
    return DurationText.parse(field, text);
  }

  static Duration optionalDuration(String field, String text) {
    return optionalDuration(field, text, null);
  }

  /** Every duration of a request body is parsed here, so each names its field the same way. */
  static Duration optionalDuration(String field, String text, Duration absent) {
    return text == null ? absent : DurationText.parse(field, text);
  }

  /** {@code keep} or {@code replace} (any case), or null when not given. */
  static OnDuplicate onDuplicate(String field, String text) {
    if (text == null) {
      return null;
    }
    return switch (text.toLowerCase(java.util.Locale.ROOT)) {
      case "keep" -> OnDuplicate.KEEP;
      case "replace" -> OnDuplicate.REPLACE;
      default ->
          throw new IllegalArgumentException(field + ": must be keep or replace, was " + text);
    };
  }

  static long progress(Long value) {
    if (value == null) {
      return 0L;
    }
    if (value < 0) {
      throw new IllegalArgumentException("progress: must not be negative, was " + value);
    }
    return value;
  }
}
