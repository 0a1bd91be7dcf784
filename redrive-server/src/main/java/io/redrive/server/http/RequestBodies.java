package io.redrive.server.http;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
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
  private RequestBodies() {}

  /** {@code POST /v1/queues}. */
  record CreateQueueBody(
      String name,
      Integer maxAttempts,
      String leaseTimeout,
      BackoffBody backoff,
      String expireAfter,
      String deadLetter,
      String deadLetterQueue,
      String streamPolicy,
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
      return p;
    }
  }

  /** {@code PATCH /v1/queues/{name}}: fields to change; {@code "expireAfter": null} clears. */
  record UpdateQueueBody(
      Integer maxAttempts,
      String leaseTimeout,
      BackoffBody backoff,
      String expireAfter,
      String deadLetter,
      String deadLetterQueue,
      String streamPolicy,
      RetryBody retry) {

    QueueUpdate update(boolean clearExpireAfter) {
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
      }
      if (streamPolicy != null) {
        b.streamPolicy(toStreamPolicy(streamPolicy));
      }
      return b.build();
    }
  }

  /**
   * {@code {"kind":"exponential","initial","multiplier","max"}} (missing parts default to 1m, 2.0,
   * 1h) or {@code {"kind":"fixed","cooldown"}}.
   */
  record BackoffBody(String kind, String initial, Double multiplier, String max, String cooldown) {
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
  record RetryBody(Integer attempts, String cooldown) {
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
  record EnqueueBody(List<NewMessageBody> messages) {}

  /** One message to enqueue; only {@code type} is required. */
  record NewMessageBody(
      String type,
      JsonNode payload,
      Map<String, String> headers,
      String stream,
      String delay,
      String dedupeKey,
      String expireAfter) {}

  /**
   * {@code POST /v1/queues/{name}/lease}; every field optional ({@code wait} is the JSON name of
   * {@code waitFor}: a record cannot have a component named {@code wait}).
   */
  record LeaseBody(
      String worker, Integer max, String leaseTimeout, @JsonProperty("wait") String waitFor) {}

  /** {@code POST /v1/leases/{token}/complete}; optional. */
  record CompleteBody(Long progress) {}

  /** {@code POST /v1/leases/{token}/fail}; only {@code reason} is required. */
  record FailBody(
      String reason,
      String message,
      Boolean retryable,
      String retryAfter,
      Long progress,
      String stackTrace) {}

  /** {@code POST /v1/leases/{token}/abandon}; optional. */
  record AbandonBody(String delay, Boolean refund, String note) {}

  /** {@code POST /v1/leases/{token}/renew}; optional. */
  record RenewBody(String leaseTimeout) {}

  /** {@code POST /v1/leases/release}. */
  record ReleaseBody(List<String> tokens) {}

  /** {@code POST /v1/messages/retry} and {@code /drop}: ids or unique prefixes. */
  record IdsBody(List<String> ids) {}

  /** {@code POST /v1/queues/{name}/drop}. */
  record DropBody(List<String> states, String type, String deadReason, Integer limit) {}

  /** {@code POST /v1/queues/{name}/redrive}. */
  record RedriveBody(
      String to,
      List<String> deadReasons,
      List<String> types,
      Instant deadSince,
      Instant deadBefore,
      Integer limit,
      Boolean dryRun) {}

  /** {@code POST /v1/queues/{name}/import}. */
  record ImportBody(List<ImportMessageBody> messages) {}

  /** One message to import, keyed by {@code sourceId}. */
  record ImportMessageBody(
      String sourceId,
      String sourceQueue,
      String type,
      JsonNode payload,
      Map<String, String> headers,
      String stream,
      Boolean dead) {}

  static Duration duration(String field, String text) {
    return DurationText.parse(field, text);
  }

  static Duration optionalDuration(String field, String text) {
    return text == null ? null : DurationText.parse(field, text);
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
