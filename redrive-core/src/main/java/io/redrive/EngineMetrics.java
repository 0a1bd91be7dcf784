package io.redrive;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.EnqueueResult;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.schedule.Firing;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's Micrometer meters, counted where every path passes (in-process callers, the Java
 * worker and the HTTP API alike); names and tags are listed in docs/engine.md, "Metrics". Without a
 * registry every method returns at once. Thread-safe.
 *
 * <p>Implementation note: meters are cached by name and tags, so a hot path pays one map lookup
 * rather than a registry lookup per call.
 */
final class EngineMetrics {
  static final String ENQUEUED = "redrive.messages.enqueued";
  static final String LEASED = "redrive.messages.leased";
  static final String COMPLETED = "redrive.messages.completed";
  static final String FAILED = "redrive.messages.failed";
  static final String RETRIED = "redrive.messages.retried";
  static final String DEAD = "redrive.messages.dead";
  static final String CRASH_POISONED = "redrive.messages.crash.poisoned";
  static final String DISCARDED = "redrive.messages.discarded";
  static final String REDRIVEN = "redrive.messages.redriven";
  static final String LEASE_TO_SETTLE = "redrive.messages.lease.to.settle";
  static final String ENQUEUE_TO_LEASE = "redrive.messages.enqueue.to.lease";

  /** How a lease ended, as the {@code outcome} tag of {@link #LEASE_TO_SETTLE}. */
  enum Settle {
    COMPLETED,
    FAILED,
    ABANDONED,
    RELEASED;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private static final Map<String, String> DESCRIPTIONS =
      Map.ofEntries(
          Map.entry(
              ENQUEUED,
              "messages enqueued (not counting dedupe hits or kept and replaced unique-key duplicates)"),
          Map.entry(LEASED, "deliveries: messages leased to a worker"),
          Map.entry(COMPLETED, "leases completed"),
          Map.entry(FAILED, "leases failed, by the reason the caller gave"),
          Map.entry(
              RETRIED,
              "messages to be delivered again: after a failure (automatic) or an operator retry"),
          Map.entry(DEAD, "messages that died, by dead reason (including those discarded)"),
          Map.entry(
              CRASH_POISONED,
              "messages poisoned by the crash-loop breaker: their lease ran out on maxCrashes"
                  + " distinct workers (also counted as dead with reason POISON)"),
          Map.entry(DISCARDED, "dead messages deleted because their queue discards"),
          Map.entry(REDRIVEN, "dead messages moved from a dead-letter queue back to a queue"),
          Map.entry(LEASE_TO_SETTLE, "time from lease to settle, by outcome"),
          Map.entry(ENQUEUE_TO_LEASE, "time from enqueue to first delivery"));

  private final MeterRegistry registry;
  private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();
  private final Map<List<String>, Timer> timers = new ConcurrentHashMap<>();

  EngineMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void enqueued(List<NewMessage> messages, List<EnqueueResult> results) {
    if (registry == null) {
      return;
    }
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i).created()) {
        counter(ENQUEUED, "queue", messages.get(i).queue()).increment();
      }
    }
  }

  /**
   * Messages schedules enqueued as they fired (a due time that had produced its message already
   * counts nothing, as a dedupe hit does not).
   */
  void fired(List<Firing> firings) {
    if (registry == null) {
      return;
    }
    for (Firing f : firings) {
      if (f.created() && f.queue() != null) {
        counter(ENQUEUED, "queue", f.queue()).increment();
      }
    }
  }

  /** A lease call: delivered messages, and those it dead-lettered instead (poison, expired). */
  void leased(String queue, LeaseResult result, Instant now) {
    if (registry == null) {
      return;
    }
    if (!result.leased().isEmpty()) {
      counter(LEASED, "queue", queue).increment(result.leased().size());
    }
    for (LeasedMessage m : result.leased()) {
      if (m.attempt() == 1) {
        timer(ENQUEUE_TO_LEASE, "queue", queue).record(since(m.enqueuedAt(), now));
      }
    }
    deaths(queue, FailureReason.POISON, result.poisoned().size(), result);
    deaths(queue, FailureReason.EXPIRED, result.expired().size(), result);
    if (!result.crashPoisoned().isEmpty()) {
      counter(CRASH_POISONED, "queue", queue).increment(result.crashPoisoned().size());
    }
  }

  private void deaths(String queue, FailureReason reason, int count, LeaseResult result) {
    if (count == 0) {
      return;
    }
    counter(DEAD, "queue", queue, "reason", reason.name()).increment(count);
    List<String> ids = reason == FailureReason.POISON ? result.poisoned() : result.expired();
    long discarded = ids.stream().filter(result.discarded()::contains).count();
    if (discarded > 0) {
      counter(DISCARDED, "queue", queue, "reason", reason.name()).increment(discarded);
    }
  }

  /**
   * A settled lease: the lease-to-settle time, and for a failure its reason and what became of the
   * message (retried, or dead and perhaps discarded). A repeated complete was counted the first
   * time.
   */
  void settled(SettleResult r, Settle how, FailureReason failure, Instant now) {
    if (registry == null || r.repeated()) {
      return;
    }
    String queue = queueOf(r);
    if (r.leasedAt() != null) {
      timer(LEASE_TO_SETTLE, "queue", queue, "outcome", how.tag()).record(since(r.leasedAt(), now));
    }
    switch (how) {
      case COMPLETED -> counter(COMPLETED, "queue", queue).increment();
      case FAILED -> {
        counter(FAILED, "queue", queue, "reason", failure.name()).increment();
        if (r.state() == MessageState.DEAD) {
          died(r);
        } else {
          counter(RETRIED, "queue", queue, "kind", "automatic").increment();
        }
      }
      default -> {
        // abandon and release only time the lease: the message is simply delivered again
      }
    }
  }

  /** A message dead-lettered outside a lease or settle (the deadline sweep). */
  void died(SettleResult r) {
    if (registry == null) {
      return;
    }
    String reason = r.deadReason() == null ? "UNKNOWN" : r.deadReason().name();
    counter(DEAD, "queue", queueOf(r), "reason", reason).increment();
    if (r.discarded()) {
      counter(DISCARDED, "queue", queueOf(r), "reason", reason).increment();
    }
  }

  /** Counts operator retries: {@code kind} {@code manual} (dead retry) or {@code now}. */
  void retriedByOperator(RetryResult result, String kind) {
    if (registry == null) {
      return;
    }
    for (String id : result.retried()) {
      counter(RETRIED, "queue", result.queues().getOrDefault(id, "unknown"), "kind", kind)
          .increment();
    }
  }

  void redriven(String from, RedriveResult result) {
    if (registry == null || result.dryRun()) {
      return;
    }
    for (RedriveResult.Move move : result.moves()) {
      counter(REDRIVEN, "queue", from, "to", move.toQueue()).increment();
    }
  }

  private static String queueOf(SettleResult r) {
    return r.queue() == null ? "unknown" : r.queue();
  }

  private static Duration since(Instant from, Instant now) {
    Duration d = Duration.between(from, now);
    return d.isNegative() ? Duration.ZERO : d;
  }

  private Counter counter(String name, String... tags) {
    return counters.computeIfAbsent(
        key(name, tags),
        k ->
            Counter.builder(name)
                .description(DESCRIPTIONS.get(name))
                .tags(tags)
                .register(registry));
  }

  private Timer timer(String name, String... tags) {
    return timers.computeIfAbsent(
        key(name, tags),
        k ->
            Timer.builder(name)
                .description(DESCRIPTIONS.get(name))
                .tags(tags)
                .publishPercentileHistogram()
                .register(registry));
  }

  private static List<String> key(String name, String... tags) {
    String[] key = new String[tags.length + 1];
    key[0] = name;
    System.arraycopy(tags, 0, key, 1, tags.length);
    return List.of(key);
  }
}
