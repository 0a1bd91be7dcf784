package io.redrive.server.http;

import io.redrive.deadletter.RedriveResult;
import io.redrive.failure.FailureRecord;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.retry.Backoff;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The response shapes of docs/api.md, built from engine values (field order as documented). */
final class Views {
  private final JsonCodec json;

  Views(JsonCodec json) {
    this.json = json;
  }

  Map<String, Object> queue(Queue q) {
    QueuePolicy p = q.policy();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", q.name());
    m.put("maxAttempts", p.maxAttempts());
    m.put("leaseTimeout", duration(p.leaseTimeout()));
    m.put("backoff", backoff(p.backoff()));
    m.put("expireAfter", duration(p.expireAfter()));
    m.put("deadLetter", p.deadLetter().mode().name().toLowerCase(Locale.ROOT));
    m.put("deadLetterQueue", p.deadLetter().queue());
    m.put("streamPolicy", p.streamPolicy().name());
    m.put("paused", q.paused());
    m.put("createdAt", q.createdAt());
    m.put("updatedAt", q.updatedAt());
    return m;
  }

  private static Map<String, Object> backoff(Backoff b) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (b instanceof ExponentialBackoff e) {
      m.put("kind", "exponential");
      m.put("initial", duration(e.initial()));
      m.put("multiplier", e.multiplier());
      m.put("max", duration(e.max()));
    } else if (b instanceof FixedBackoff f) {
      m.put("kind", "fixed");
      m.put("cooldown", duration(f.cooldown()));
    }
    return m;
  }

  Map<String, Object> stats(QueueStats s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("queue", s.queue());
    m.put("ready", s.ready());
    m.put("scheduled", s.scheduled());
    m.put("leased", s.leased());
    m.put("leaseExpired", s.leaseExpired());
    m.put("dead", s.dead());
    m.put("total", s.total());
    Map<String, Long> attempts = new LinkedHashMap<>();
    s.attemptsHistogram().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> attempts.put(String.valueOf(e.getKey()), e.getValue()));
    m.put("attempts", attempts);
    m.put("deadReasons", s.deadReasons());
    m.put("failureReasons", s.failureReasons());
    m.put("nextScheduledAt", s.nextScheduledAt());
    m.put("latestScheduledAt", s.latestScheduledAt());
    m.put(
        "oldestReadyAge",
        s.oldestReadyAge() == null ? null : DurationText.formatApproximate(s.oldestReadyAge()));
    return m;
  }

  Map<String, Object> leaseResult(LeaseResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    List<Object> messages = new ArrayList<>();
    for (LeasedMessage l : r.leased()) {
      messages.add(leased(l));
    }
    m.put("messages", messages);
    m.put("poisoned", r.poisoned());
    m.put("expired", r.expired());
    return m;
  }

  private Map<String, Object> leased(LeasedMessage l) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("token", l.token());
    m.put("id", l.id());
    m.put("queue", l.queue());
    m.put("type", l.type());
    m.put("payload", json.payload(l.payload()));
    m.put("headers", l.headers());
    m.put("stream", l.stream());
    m.put("attempt", l.attempt());
    m.put("maxAttempts", l.maxAttempts());
    m.put("progress", l.progress());
    m.put("enqueuedAt", l.enqueuedAt());
    m.put("leaseExpiresAt", l.leaseExpiresAt());
    return m;
  }

  Map<String, Object> settle(SettleResult s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", s.messageId());
    m.put("state", s.state().name());
    m.put("visibleAt", s.visibleAt());
    m.put("deadReason", s.deadReason() == null ? null : s.deadReason().name());
    m.put("deadLetterQueue", s.deadLetterQueue());
    m.put("discarded", s.discarded());
    return m;
  }

  Map<String, Object> message(Message msg, boolean withHistory) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", msg.id());
    m.put("queue", msg.queue());
    m.put("type", msg.type());
    m.put("payload", json.payload(msg.payload()));
    m.put("headers", msg.headers());
    m.put("stream", msg.stream());
    m.put("state", msg.state().name());
    m.put("attempts", msg.attempts());
    m.put("maxAttempts", msg.maxAttempts());
    m.put("progress", msg.progress());
    m.put("enqueuedAt", msg.enqueuedAt());
    m.put("visibleAt", msg.visibleAt());
    m.put("expireAt", msg.expireAt());
    m.put("leasedBy", msg.leasedBy());
    m.put("deadReason", msg.deadReason() == null ? null : msg.deadReason().name());
    m.put("deadAt", msg.deadAt());
    m.put("sourceId", msg.sourceId());
    m.put("sourceQueue", msg.sourceQueue());
    m.put("dedupeKey", msg.dedupeKey());
    m.put("lastError", failure(msg.lastError()));
    if (withHistory) {
      List<Object> history = new ArrayList<>();
      for (HistoryEntry e : msg.history()) {
        history.add(entry(e));
      }
      m.put("history", history);
    }
    return m;
  }

  private static Map<String, Object> entry(HistoryEntry e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("attempt", e.attempt());
    m.put("outcome", e.outcome().name());
    m.put("worker", e.worker());
    m.put("leasedAt", e.leasedAt());
    m.put("settledAt", e.settledAt());
    m.put("failure", failure(e.failure()));
    m.put("note", e.note());
    return m;
  }

  static Map<String, Object> failure(FailureRecord f) {
    if (f == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("reason", f.reason().name());
    m.put("category", f.category().name());
    m.put("message", f.message());
    m.put("retryable", f.retryable());
    m.put("attempt", f.attempt());
    m.put("maxAttempts", f.maxAttempts());
    m.put("worker", f.worker());
    m.put("at", f.at());
    m.put("stackTrace", f.stackTrace());
    m.put("poisonedMessage", f.poisonedMessage());
    m.put("display", f.displayText());
    return m;
  }

  Map<String, Object> redrive(RedriveResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    List<Object> moves = new ArrayList<>();
    for (RedriveResult.Move mv : r.moves()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("deadLetterId", mv.deadLetterId());
      e.put("toQueue", mv.toQueue());
      e.put("newId", mv.newId());
      moves.add(e);
    }
    m.put("moves", moves);
    m.put("skipped", r.skipped());
    m.put("dryRun", r.dryRun());
    m.put("count", r.count());
    return m;
  }

  static String duration(Duration d) {
    return d == null ? null : DurationText.format(d);
  }
}
