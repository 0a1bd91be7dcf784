package io.redrive.server.http;

import io.redrive.queue.DeadLetter;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueUpdate;
import io.redrive.queue.Rate;
import io.redrive.queue.StreamPolicy;
import io.redrive.retry.Backoff;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.retry.Jitter;
import java.time.Duration;
import java.util.Locale;

/**
 * The request bodies that create and change queues ({@code POST /v1/queues}, {@code PATCH
 * /v1/queues/{name}}) and their parts: a queue's policy as docs/api.md names its fields. Jackson
 * refuses any other field; values are checked when converted, with errors naming the field.
 */
final class QueueBodies {
  private QueueBodies() {}

  /** {@code POST /v1/queues}. */
  record CreateQueueBody(
      @ApiField(required = true, pattern = RequestBodies.QUEUE_NAME, maxLength = 200) String name,
      @ApiField(min = 1, max = QueuePolicy.MAX_MAX_ATTEMPTS) Integer maxAttempts,
      @ApiField(format = "duration", description = "1ms to 12h") String leaseTimeout,
      BackoffBody backoff,
      @ApiField(format = "duration") String expireAfter,
      @ApiField(values = {"keep", "move", "discard"}) String deadLetter,
      @ApiField(pattern = RequestBodies.QUEUE_NAME, maxLength = 200) String deadLetterQueue,
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
      @ApiField(
              min = 0,
              max = 9,
              description =
                  "the priority of a message enqueued without one; higher is served first")
          Integer defaultPriority,
      @ApiField(
              format = "duration",
              description =
                  "the head start one step of priority is worth (1s to 1d), for messages"
                      + " enqueued from then on")
          String priorityAging,
      RetryBody retry,
      LimitsBody limits,
      CircuitBodies.CircuitBody circuit) {

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
        p = p.withLeaseTimeout(RequestBodies.duration("leaseTimeout", leaseTimeout));
      }
      if (backoff != null) {
        p =
            p.withBackoff(
                backoff.jitterAlone()
                    ? p.backoff().withJitter(backoff.jitterValue())
                    : backoff.toBackoff());
      }
      if (expireAfter != null) {
        p = p.withExpireAfter(RequestBodies.duration("expireAfter", expireAfter));
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
      if (defaultPriority != null) {
        p = p.withPriority(p.priority().withDefaultPriority(defaultPriority));
      }
      if (priorityAging != null) {
        p = p.withPriority(p.priority().withAging(aging(priorityAging)));
      }
      if (limits != null) {
        p = p.withLimits(limits.toLimits());
      }
      return circuit == null ? p : p.withCircuit(circuit.toPolicy());
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
              pattern = RequestBodies.QUEUE_NAME,
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
      @ApiField(
              min = 0,
              max = 9,
              description =
                  "the priority of a message enqueued without one; higher is served first")
          Integer defaultPriority,
      @ApiField(
              format = "duration",
              description =
                  "the head start one step of priority is worth (1s to 1d), for messages"
                      + " enqueued from then on")
          String priorityAging,
      RetryBody retry,
      @ApiField(
              nullable = true,
              description =
                  "fields given replace the queue's (the others stay); null removes every limit")
          LimitsBody limits,
      @ApiField(nullable = true, description = "replaces the settings; null turns it off")
          CircuitBodies.CircuitBody circuit) {

    QueueUpdate update(
        boolean clearExpireAfter,
        boolean clearDeadLetterQueue,
        boolean clearLimits,
        boolean clearCircuit) {
      QueueUpdate.Builder b = QueueUpdate.builder();
      if (circuit != null || clearCircuit) {
        b.circuit(circuit == null ? null : circuit.toPolicy());
      }
      if (retry != null) {
        checkRetryAlone(maxAttempts, backoff);
        b.maxAttempts(Math.max(1, retry.attemptsValue()));
        b.backoff(new FixedBackoff(retry.cooldownValue()));
      }
      if (maxAttempts != null) {
        b.maxAttempts(maxAttempts);
      }
      if (leaseTimeout != null) {
        b.leaseTimeout(
            QueuePolicy.requireLeaseTimeout(RequestBodies.duration("leaseTimeout", leaseTimeout)));
      }
      if (backoff != null && backoff.jitterAlone()) {
        b.backoffJitter(backoff.jitterValue());
      } else if (backoff != null) {
        b.backoff(backoff.toBackoff());
      }
      if (clearExpireAfter) {
        b.clearExpireAfter();
      } else if (expireAfter != null) {
        b.expireAfter(RequestBodies.duration("expireAfter", expireAfter));
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
      if (defaultPriority != null) {
        b.defaultPriority(defaultPriority);
      }
      if (priorityAging != null) {
        b.priorityAging(aging(priorityAging));
      }
      if (clearLimits) {
        b.clearLimits();
      } else if (limits != null) {
        b.limits(limits.toLimits());
      }
      return b.build();
    }
  }

  /** A {@code priorityAging} text, validated (1s to 1d). */
  static Duration aging(String text) {
    return PriorityPolicy.requireAging(RequestBodies.duration("priorityAging", text));
  }

  /** A queue's flow limits ({@code limits}); every field optional. */
  record LimitsBody(
      @ApiField(min = 1, max = FlowLimits.MAX_RUNNING, description = "most leased at once")
          Integer maxRunning,
      @ApiField(
              min = 1,
              max = FlowLimits.MAX_RUNNING,
              description = "most leased at once per limit key; 1 makes each key a singleton")
          Integer maxRunningPerKey,
      @ApiField(description = "most leases per period, e.g. \"100/1m\"") String rate,
      @ApiField(description = "most leases per period of one limit key, e.g. \"10/1s\"")
          String ratePerKey) {

    FlowLimits toLimits() {
      try {
        return new FlowLimits(
            maxRunning,
            maxRunningPerKey,
            rate == null ? null : Rate.parse("rate", rate),
            ratePerKey == null ? null : Rate.parse("ratePerKey", ratePerKey));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("limits." + e.getMessage(), e);
      }
    }
  }

  /** A {@code completedRetention} text, validated (0s to 90d). */
  static Duration retention(String text) {
    return QueuePolicy.requireCompletedRetention(
        RequestBodies.duration("completedRetention", text));
  }

  /**
   * {@code {"kind":"exponential","initial","multiplier","max"}} (missing parts default to 1m, 2.0,
   * 1h) or {@code {"kind":"fixed","cooldown"}}, each with an optional {@code jitter} (absent:
   * NONE); {@code {"jitter"}} alone changes only the current backoff's jitter.
   */
  record BackoffBody(
      @ApiField(
              values = {"exponential", "fixed"},
              description = "required unless jitter is given alone")
          String kind,
      @ApiField(format = "duration") String initial,
      @ApiField(min = 1, max = 100) Double multiplier,
      @ApiField(format = "duration") String max,
      @ApiField(format = "duration") String cooldown,
      @ApiField(
              values = {"NONE", "FULL", "EQUAL"},
              description =
                  "spread of each delay d: NONE exact, FULL uniform in [0, d], EQUAL d/2 + uniform"
                      + " [0, d/2]")
          String jitter) {

    /** The jitter given, or null. */
    Jitter jitterValue() {
      return jitter == null ? null : Jitter.parse("backoff.jitter", jitter);
    }

    /** True when only the jitter is given: the current backoff keeps its delays. */
    boolean jitterAlone() {
      return kind == null
          && initial == null
          && multiplier == null
          && max == null
          && cooldown == null
          && jitter != null;
    }

    Backoff toBackoff() {
      if (kind == null) {
        throw new IllegalArgumentException("backoff.kind: is required (exponential or fixed)");
      }
      Jitter j = jitterValue();
      return delays().withJitter(j == null ? Jitter.NONE : j);
    }

    private Backoff delays() {
      switch (kind.toLowerCase(Locale.ROOT)) {
        case "exponential":
          if (cooldown != null) {
            throw new IllegalArgumentException(
                "backoff.cooldown: only for kind \"fixed\" (exponential takes initial, multiplier,"
                    + " max)");
          }
          return new ExponentialBackoff(
              initial == null
                  ? Duration.ofMinutes(1)
                  : RequestBodies.duration("backoff.initial", initial),
              multiplier == null ? 2.0 : multiplier,
              max == null ? Duration.ofHours(1) : RequestBodies.duration("backoff.max", max));
        case "fixed":
          if (initial != null || multiplier != null || max != null) {
            throw new IllegalArgumentException(
                "backoff: kind \"fixed\" takes only cooldown (initial, multiplier and max are for"
                    + " exponential)");
          }
          if (cooldown == null) {
            throw new IllegalArgumentException("backoff.cooldown: is required for kind \"fixed\"");
          }
          return new FixedBackoff(RequestBodies.duration("backoff.cooldown", cooldown));
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
      return RequestBodies.duration("retry.cooldown", cooldown);
    }
  }

  private static void checkRetryAlone(Integer maxAttempts, BackoffBody backoff) {
    // A jitter alone spreads the short form's cooldown: allowed with it.
    if (maxAttempts != null || (backoff != null && !backoff.jitterAlone())) {
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
