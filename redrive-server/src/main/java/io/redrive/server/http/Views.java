package io.redrive.server.http;

import io.redrive.deadletter.DeadGroup;
import io.redrive.deadletter.Fingerprint;
import io.redrive.deadletter.RedriveResult;
import io.redrive.failure.FailureRecord;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.CrashEvidence;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.queue.ThroughputPoint;
import io.redrive.retry.Backoff;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.time.DurationText;
import io.redrive.trace.TraceParent;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/** Builds the {@link Responses} records of docs/api.md from engine values. */
final class Views {
  private final JsonCodec json;

  Views(JsonCodec json) {
    this.json = json;
  }

  /**
   * What a caller's key shows instead of a dead-letter queue outside its scope: not a valid queue
   * name, so it cannot be mistaken for one.
   */
  static final String HIDDEN_QUEUE = "(hidden)";

  Responses.Queue queue(Queue q) {
    return queue(q, name -> true);
  }

  /** The queue as a caller sees it: a dead-letter queue it may not see is {@link #HIDDEN_QUEUE}. */
  Responses.Queue queue(Queue q, Predicate<String> visible) {
    QueuePolicy p = q.policy();
    String dlq = p.deadLetter().queue();
    return new Responses.Queue(
        q.name(),
        p.maxAttempts(),
        duration(p.leaseTimeout()),
        backoff(p.backoff()),
        duration(p.expireAfter()),
        p.deadLetter().mode().name().toLowerCase(Locale.ROOT),
        dlq == null || visible.test(dlq) ? dlq : HIDDEN_QUEUE,
        p.streamPolicy(),
        p.maxCrashes(),
        p.completedRetention() == null ? null : duration(p.completedRetention()),
        q.paused(),
        q.createdAt(),
        q.updatedAt(),
        q.workflowOwned(),
        p.priority().defaultPriority(),
        duration(p.priority().aging()),
        limits(p.limits()),
        CircuitBodies.view(p.circuit()));
  }

  private static Responses.Limits limits(io.redrive.queue.FlowLimits l) {
    if (l.isEmpty()) {
      return null;
    }
    return new Responses.Limits(
        l.maxRunning(),
        l.maxRunningPerKey(),
        l.rate() == null ? null : l.rate().toString(),
        l.ratePerKey() == null ? null : l.ratePerKey().toString());
  }

  private static Responses.Backoff backoff(Backoff b) {
    String jitter = b.jitter() == io.redrive.retry.Jitter.NONE ? null : b.jitter().name();
    if (b instanceof ExponentialBackoff e) {
      return new Responses.Backoff(
          "exponential", duration(e.initial()), e.multiplier(), duration(e.max()), null, jitter);
    }
    if (b instanceof FixedBackoff f) {
      return new Responses.Backoff("fixed", null, null, null, duration(f.cooldown()), jitter);
    }
    throw new IllegalStateException("unknown backoff " + b.getClass().getName());
  }

  Responses.QueueWithStats queueWithStats(Queue q, QueueStats s, Predicate<String> visible) {
    return new Responses.QueueWithStats(queue(q, visible), stats(s));
  }

  /** The throughput of {@code queue} (null: summed over queues) over the last {@code minutes}. */
  Responses.Throughput throughput(String queue, int minutes, List<ThroughputPoint> points) {
    List<Responses.ThroughputPoint> out = new java.util.ArrayList<>(points.size());
    for (ThroughputPoint p : points) {
      ThroughputPoint.Depth d = p.depth();
      out.add(
          new Responses.ThroughputPoint(
              p.minute(),
              p.enqueued(),
              p.completed(),
              p.failed(),
              p.dead(),
              d == null
                  ? null
                  : new Responses.ThroughputDepth(d.ready(), d.scheduled(), d.leased(), d.dead())));
    }
    return new Responses.Throughput(queue, minutes, out);
  }

  Responses.Stats stats(QueueStats s) {
    Map<String, Long> attempts = new LinkedHashMap<>();
    s.attemptsHistogram().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> attempts.put(String.valueOf(e.getKey()), e.getValue()));
    return new Responses.Stats(
        s.queue(),
        s.ready(),
        s.scheduled(),
        s.leased(),
        s.leaseExpired(),
        s.dead(),
        s.total(),
        attempts,
        s.deadReasons(),
        s.failureReasons(),
        s.nextScheduledAt(),
        s.latestScheduledAt(),
        s.oldestReadyAge() == null ? null : DurationText.formatApproximate(s.oldestReadyAge()));
  }

  Responses.LeaseResult leaseResult(LeaseResult r) {
    return new Responses.LeaseResult(
        r.leased().stream().map(this::leased).toList(), r.poisoned(), r.expired());
  }

  private Responses.Leased leased(LeasedMessage l) {
    return new Responses.Leased(
        l.token(),
        l.id(),
        l.queue(),
        l.type(),
        json.payload(l.payload()),
        l.headers(),
        l.stream(),
        l.attempt(),
        l.maxAttempts(),
        l.progress(),
        l.enqueuedAt(),
        l.leaseExpiresAt(),
        l.priority(),
        l.limitKey());
  }

  /**
   * A settle as the caller sees it: a dead-letter queue outside its scope is hidden. There is no
   * unscoped form, so no settle or lease answer can forget the caller's scope.
   */
  static Responses.Settle settle(SettleResult s, Predicate<String> visible) {
    String dlq = s.deadLetterQueue();
    return new Responses.Settle(
        s.messageId(),
        s.state(),
        s.visibleAt(),
        s.deadReason(),
        dlq == null || visible.test(dlq) ? dlq : HIDDEN_QUEUE,
        s.discarded(),
        s.repeated());
  }

  /**
   * A message as the caller sees it: when it was moved here from a queue outside the caller's scope
   * (a dead-letter copy), that queue's name and the message's id there are {@link #HIDDEN_QUEUE},
   * in {@code sourceQueue}, {@code sourceId} and the history note of the move.
   */
  Responses.Message message(Message msg, boolean withHistory, Predicate<String> visible) {
    boolean hideSource = msg.sourceQueue() != null && !visible.test(msg.sourceQueue());
    String moveNote =
        hideSource ? "moved from " + msg.sourceQueue() + " (id " + msg.sourceId() + ")" : null;
    return new Responses.Message(
        msg.id(),
        msg.queue(),
        msg.type(),
        json.payload(msg.payload()),
        msg.headers(),
        msg.stream(),
        msg.priority(),
        msg.state(),
        msg.attempts(),
        msg.maxAttempts(),
        msg.progress(),
        msg.enqueuedAt(),
        msg.visibleAt(),
        msg.expireAt(),
        msg.leasedBy(),
        msg.deadReason(),
        msg.deadAt(),
        msg.completedAt(),
        hideSource ? HIDDEN_QUEUE : msg.sourceId(),
        hideSource ? msg.sourceQueue() == null ? null : HIDDEN_QUEUE : msg.sourceQueue(),
        msg.dedupeKey(),
        msg.limitKey(),
        msg.uniqueKey(),
        TraceParent.traceIdOf(msg.headers()).orElse(null),
        failure(msg.lastError()),
        withHistory ? msg.history().stream().map(e -> entry(e, moveNote)).toList() : null);
  }

  /** An entry; the note of a move from a hidden queue ({@code hiddenMove}) says only that. */
  static Responses.Entry entry(HistoryEntry e, String hiddenMove) {
    String note = e.note();
    if (hiddenMove != null && note != null) {
      note = note.replace(hiddenMove, "moved from " + HIDDEN_QUEUE);
    }
    return new Responses.Entry(
        e.attempt(),
        e.outcome(),
        e.worker(),
        e.leasedAt(),
        e.settledAt(),
        failure(e.failure()),
        note,
        CrashEvidence.of(e).map(CrashEvidence::word).orElse(null));
  }

  /** A dead-letter group with the pieces of its fingerprint. */
  static Responses.DeadGroup deadGroup(DeadGroup g) {
    Fingerprint f = g.pieces();
    return new Responses.DeadGroup(
        g.queue(),
        g.fingerprint(),
        g.deadReason(),
        g.type(),
        g.count(),
        g.firstDeadAt(),
        g.lastDeadAt(),
        f.causeReason(),
        f.exceptionClass(),
        f.pattern(),
        f.frames(),
        g.sampleId(),
        failure(g.sampleCause()));
  }

  static Responses.Failure failure(FailureRecord f) {
    if (f == null) {
      return null;
    }
    return new Responses.Failure(
        f.reason(),
        f.category(),
        f.message(),
        f.retryable(),
        f.attempt(),
        f.maxAttempts(),
        f.worker(),
        f.at(),
        f.stackTrace(),
        f.poisonedMessage(),
        f.displayText());
  }

  /** A redrive's result as the caller sees it: a target queue outside its scope is hidden. */
  static Responses.RedriveResult redrive(
      RedriveResult r, Integer remaining, Predicate<String> visible) {
    List<Responses.Move> moves =
        r.moves().stream()
            .map(
                mv ->
                    new Responses.Move(
                        mv.deadLetterId(),
                        visible.test(mv.toQueue()) ? mv.toQueue() : HIDDEN_QUEUE,
                        mv.newId()))
            .toList();
    List<Responses.StreamOrder> streams =
        r.streams().stream()
            .filter(o -> visible.test(o.queue()))
            .map(o -> new Responses.StreamOrder(o.queue(), o.stream(), o.ids(), o.redriven()))
            .toList();
    return new Responses.RedriveResult(
        moves, r.skipped(), r.dryRun(), r.count(), streams, remaining);
  }

  /** A duration in the unit form, to the millisecond (answers carry no finer time). */
  static String duration(Duration d) {
    return d == null ? null : DurationText.format(d.truncatedTo(ChronoUnit.MILLIS));
  }
}
