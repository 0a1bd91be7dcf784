package io.redrive.server.http;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueUpdate;
import io.redrive.queue.StreamPolicy;
import io.redrive.retry.Backoff;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
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

  /** {@code POST /v1/queues}. */
  record CreateQueueBody(
      @ApiField(required = true, pattern = QUEUE_NAME, maxLength = 200) String name,
      @ApiField(min = 1, max = QueuePolicy.MAX_MAX_ATTEMPTS) Integer maxAttempts,
      @ApiField(format = "duration", description = "1ms to 12h") String leaseTimeout,
      BackoffBody backoff,
      @ApiField(format = "duration") String expireAfter,
      @ApiField(values = {"keep", "move", "discard"}) String deadLetter,
      @ApiField(pattern = QUEUE_NAME, maxLength = 200) String deadLetterQueue,
      @ApiField(values = {"HOLD", "HALT", "RELEASE"}) String streamPolicy,
      @ApiField(
              min = 0,
              max = QueuePolicy.MAX_MAX_ATTEMPTS,
              description =
                  "the crash-loop breaker: poison a message whose lease ran out on this many"
                      + " distinct workers; 0 turns it off")
          Integer maxCrashes,
      @ApiField(
              format = "duration",
              description =
                  "how long completed messages keep their story (0s to 90d; 0s keeps nothing);"
                      + " absent follows the server's default")
          String completedRetention,
      RetryBody retry) {

    QueuePolicy policy() {
      QueuePolicy p = QueuePolicy.defaults();
      if (retry != null) {
        checkRetryAlone(maxAttempts, backoff);
        p = p.withRetry(retry.attemptsValue(), retry.cooldownValue());
      }
      if (maxAttempts != null) {
        p = p.withMaxAttempts(maxAttempts);
      }
      if (leaseTimeout != null) {
        p = p.withLeaseTimeout(duration("leaseTimeout", leaseTimeout));
      }
      if (backoff != null) {
        p = p.withBackoff(backoff.toBackoff());
      }
      if (expireAfter != null) {
        p = p.withExpireAfter(duration("expireAfter", expireAfter));
      }
      DeadLetter dl = toDeadLetter(deadLetter, deadLetterQueue);
      if (dl != null) {
        p = p.withDeadLetter(dl);
      }
      if (streamPolicy != null) {
        p = p.withStreamPolicy(toStreamPolicy(streamPolicy));
      }
      if (maxCrashes != null) {
        p = p.withMaxCrashes(maxCrashes);
      }
      if (completedRetention != null) {
        p = p.withCompletedRetention(retention(completedRetention));
      }
      return p;
    }
  }

  /**
   * {@code PATCH /v1/queues/{name}}: fields to change; {@code "expireAfter": null} and {@code
   * "deadLetterQueue": null} clear.
   */
  record UpdateQueueBody(
      @ApiField(min = 1, max = QueuePolicy.MAX_MAX_ATTEMPTS) Integer maxAttempts,
      @ApiField(format = "duration", description = "1ms to 12h") String leaseTimeout,
      BackoffBody backoff,
      @ApiField(format = "duration", nullable = true, description = "null clears the deadline")
          String expireAfter,
      @ApiField(values = {"keep", "move", "discard"}) String deadLetter,
      @ApiField(
              pattern = QUEUE_NAME,
              maxLength = 200,
              nullable = true,
              description = "null removes the dead-letter queue (dead letters are then kept)")
          String deadLetterQueue,
      @ApiField(values = {"HOLD", "HALT", "RELEASE"}) String streamPolicy,
      @ApiField(
              min = 0,
              max = QueuePolicy.MAX_MAX_ATTEMPTS,
              description =
                  "the crash-loop breaker: poison a message whose lease ran out on this many"
                      + " distinct workers; 0 turns it off")
          Integer maxCrashes,
      @ApiField(
              format = "duration",
              description =
                  "how long completed messages keep their story (0s to 90d; 0s keeps nothing);"
                      + " absent follows the server's default; \"default\" follows it again")
          String completedRetention,
      RetryBody retry) {

    QueueUpdate update(boolean clearExpireAfter, boolean clearDeadLetterQueue) {
      QueueUpdate.Builder b = QueueUpdate.builder();
      if (retry != null) {
        checkRetryAlone(maxAttempts, backoff);
        b.maxAttempts(Math.max(1, retry.attemptsValue()));
        b.backoff(new FixedBackoff(retry.cooldownValue()));
      }
      if (maxAttempts != null) {
        b.maxAttempts(maxAttempts);
      }
      if (leaseTimeout != null) {
        b.leaseTimeout(QueuePolicy.requireLeaseTimeout(duration("leaseTimeout", leaseTimeout)));
      }
      if (backoff != null) {
        b.backoff(backoff.toBackoff());
      }
      if (clearExpireAfter) {
        b.clearExpireAfter();
      } else if (expireAfter != null) {
        b.expireAfter(duration("expireAfter", expireAfter));
      }
      DeadLetter dl = toDeadLetter(deadLetter, deadLetterQueue);
      if (dl != null) {
        b.deadLetter(dl);
      } else if (clearDeadLetterQueue) {
        b.clearDeadLetterQueue();
      }
      if (streamPolicy != null) {
        b.streamPolicy(toStreamPolicy(streamPolicy));
      }
      if (maxCrashes != null) {
        b.maxCrashes(maxCrashes);
      }
      if ("default".equals(completedRetention)) {
        b.clearCompletedRetention();
      } else if (completedRetention != null) {
        b.completedRetention(retention(completedRetention));
      }
      return b.build();
    }
  }

  /** A {@code completedRetention} text, validated (0s to 90d). */
  static Duration retention(String text) {
    return QueuePolicy.requireCompletedRetention(duration("completedRetention", text));
  }

  /**
   * {@code {"kind":"exponential","initial","multiplier","max"}} (missing parts default to 1m, 2.0,
   * 1h) or {@code {"kind":"fixed","cooldown"}}.
   */
  record BackoffBody(
      @ApiField(
              required = true,
              values = {"exponential", "fixed"})
          String kind,
      @ApiField(format = "duration") String initial,
      @ApiField(min = 1, max = 100) Double multiplier,
      @ApiField(format = "duration") String max,
      @ApiField(format = "duration") String cooldown) {
    Backoff toBackoff() {
      if (kind == null) {
        throw new IllegalArgumentException("backoff.kind: is required (exponential or fixed)");
      }
      switch (kind.toLowerCase(Locale.ROOT)) {
        case "exponential":
          if (cooldown != null) {
            throw new IllegalArgumentException(
                "backoff.cooldown: only for kind \"fixed\" (exponential takes initial, multiplier,"
                    + " max)");
          }
          return new ExponentialBackoff(
              initial == null ? Duration.ofMinutes(1) : duration("backoff.initial", initial),
              multiplier == null ? 2.0 : multiplier,
              max == null ? Duration.ofHours(1) : duration("backoff.max", max));
        case "fixed":
          if (initial != null || multiplier != null || max != null) {
            throw new IllegalArgumentException(
                "backoff: kind \"fixed\" takes only cooldown (initial, multiplier and max are for"
                    + " exponential)");
          }
          if (cooldown == null) {
            throw new IllegalArgumentException("backoff.cooldown: is required for kind \"fixed\"");
          }
          return new FixedBackoff(duration("backoff.cooldown", cooldown));
        default:
          throw new IllegalArgumentException(
              "backoff.kind: unknown kind \"" + kind + "\" (exponential or fixed)");
      }
    }
  }

  /** The short retry form: N total runs with a fixed cooldown. */
  record RetryBody(
      @ApiField(required = true, min = 0, max = QueuePolicy.MAX_MAX_ATTEMPTS) Integer attempts,
      @ApiField(required = true, format = "duration") String cooldown) {
    int attemptsValue() {
      if (attempts == null) {
        throw new IllegalArgumentException("retry.attempts: is required");
      }
      return attempts;
    }

    Duration cooldownValue() {
      if (cooldown == null) {
        throw new IllegalArgumentException("retry.cooldown: is required");
      }
      return duration("retry.cooldown", cooldown);
    }
  }

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
      @ApiField(format = "duration") String expireAfter) {}

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
      @JsonDeserialize(using = JsonCodec.FailureText.class) String stackTrace) {}

  /** {@code POST /v1/leases/{token}/abandon}; optional. */
  record AbandonBody(
      @ApiField(format = "duration") String delay,
      Boolean refund,
      @JsonDeserialize(using = JsonCodec.FailureText.class) String note) {}

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
          RawJson result) {}

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
      Boolean dryRun) {}

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
      Boolean dead) {}

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

  static long progress(Long value) {
    if (value == null) {
      return 0L;
    }
    if (value < 0) {
      throw new IllegalArgumentException("progress: must not be negative, was " + value);
    }
    return value;
  }

  private static void checkRetryAlone(Integer maxAttempts, BackoffBody backoff) {
    if (maxAttempts != null || backoff != null) {
      throw new IllegalArgumentException(
          "retry: the short form sets maxAttempts and backoff; do not give it together with them");
    }
  }

  private static DeadLetter toDeadLetter(String mode, String queue) {
    if (mode == null) {
      return queue == null ? null : DeadLetter.moveTo(queue);
    }
    switch (mode.toLowerCase(Locale.ROOT)) {
      case "keep":
        return new DeadLetter(DeadLetter.Mode.KEEP, queue);
      case "discard":
        return new DeadLetter(DeadLetter.Mode.DISCARD, queue);
      case "move":
        return new DeadLetter(DeadLetter.Mode.MOVE, queue);
      default:
        throw new IllegalArgumentException(
            "deadLetter: unknown value \"" + mode + "\" (keep, move or discard)");
    }
  }

  private static StreamPolicy toStreamPolicy(String text) {
    try {
      return StreamPolicy.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "streamPolicy: unknown value \"" + text + "\" (HOLD, HALT or RELEASE)");
    }
  }
}
