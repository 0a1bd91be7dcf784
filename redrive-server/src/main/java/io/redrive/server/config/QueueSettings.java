package io.redrive.server.config;

import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.QueueNames;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueUpdate;
import io.redrive.queue.Rate;
import io.redrive.queue.StreamPolicy;
import io.redrive.retry.Backoff;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.retry.Jitter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the {@code [queues.<name>]} tables into {@link QueueUpdate}s (only the fields given) and
 * checks the dead-letter rules that can be checked within the file.
 */
final class QueueSettings {
  static final List<String> FIELDS =
      List.of(
          "maxAttempts",
          "leaseTimeout",
          "backoff",
          "retry",
          "expireAfter",
          "deadLetter",
          "deadLetterQueue",
          "streamPolicy",
          "maxCrashes",
          "completedRetention",
          "defaultPriority",
          "priorityAging",
          "maxRunning",
          "maxRunningPerKey",
          "rate",
          "ratePerKey",
          "circuit");

  private QueueSettings() {}

  /** The declared queues in file order; {@code queues} may be absent. */
  static Map<String, QueueUpdate> read(ConfigNode queues) {
    Map<String, QueueUpdate> out = new LinkedHashMap<>();
    if (!queues.present()) {
      return out;
    }
    for (Map.Entry<String, ConfigNode> e : queues.entries().entrySet()) {
      ConfigNode q = e.getValue();
      try {
        QueueNames.require("name", e.getKey());
      } catch (IllegalArgumentException ex) {
        throw q.error(ex);
      }
      out.put(e.getKey(), queue(q));
    }
    checkDeadLetters(queues, out);
    return out;
  }

  private static QueueUpdate queue(ConfigNode q) {
    q.allowOnly(FIELDS);
    QueueUpdate.Builder b = QueueUpdate.builder();
    QueuePolicy check = QueuePolicy.defaults();
    ConfigNode maxAttempts = q.child("maxAttempts");
    if (maxAttempts.present()) {
      int v = maxAttempts.anyInt();
      validate(q, () -> check.withMaxAttempts(v));
      b.maxAttempts(v);
    }
    ConfigNode leaseTimeout = q.child("leaseTimeout");
    if (leaseTimeout.present()) {
      Duration d = leaseTimeout.duration();
      validate(q, () -> check.withLeaseTimeout(d));
      b.leaseTimeout(d);
    }
    ConfigNode backoff = q.child("backoff");
    boolean jitterAlone = backoff.present() && jitterAlone(backoff);
    if (jitterAlone) {
      b.backoffJitter(jitter(q, backoff));
    } else if (backoff.present()) {
      b.backoff(backoff(q, backoff).withJitter(jitter(q, backoff)));
    }
    ConfigNode retry = q.child("retry");
    if (retry.present()) {
      for (String other : List.of("maxAttempts", "backoff")) {
        if (q.child(other).present() && !(other.equals("backoff") && jitterAlone)) {
          throw retry.error(
              "not together with "
                  + other
                  + " (the short form sets both maxAttempts and a fixed backoff)");
        }
      }
      retry.allowOnly(List.of("attempts", "cooldown"));
      ConfigNode attemptsNode = retry.child("attempts");
      if (!attemptsNode.present()) {
        throw attemptsNode.error("is required (total runs; 0 or 1 means no retry)");
      }
      int attempts = attemptsNode.anyInt();
      ConfigNode cooldownNode = retry.child("cooldown");
      Duration cooldown = cooldownNode.present() ? cooldownNode.duration() : Duration.ZERO;
      QueuePolicy p = validate(q, () -> check.withRetry(attempts, cooldown));
      b.maxAttempts(p.maxAttempts()).backoff(p.backoff());
    }
    ConfigNode expireAfter = q.child("expireAfter");
    if (expireAfter.present()) {
      Duration d = expireAfter.duration();
      validate(q, () -> check.withExpireAfter(d));
      b.expireAfter(d);
    }
    DeadLetter deadLetter = deadLetter(q);
    if (deadLetter != null) {
      b.deadLetter(deadLetter);
    }
    ConfigNode stream = q.child("streamPolicy");
    if (stream.present()) {
      b.streamPolicy(oneOf(stream, StreamPolicy.class, "HOLD, HALT or RELEASE"));
    }
    ConfigNode maxCrashes = q.child("maxCrashes");
    if (maxCrashes.present()) {
      int v = maxCrashes.anyInt();
      validate(q, () -> check.withMaxCrashes(v));
      b.maxCrashes(v);
    }
    ConfigNode retention = q.child("completedRetention");
    if (retention.present()) {
      if ("default".equals(retention.string())) {
        b.clearCompletedRetention();
      } else {
        Duration keep = retention.duration();
        validate(q, () -> check.withCompletedRetention(keep));
        b.completedRetention(keep);
      }
    }
    ConfigNode defaultPriority = q.child("defaultPriority");
    if (defaultPriority.present()) {
      int v = defaultPriority.anyInt();
      validate(q, () -> check.withPriority(check.priority().withDefaultPriority(v)));
      b.defaultPriority(v);
    }
    ConfigNode aging = q.child("priorityAging");
    if (aging.present()) {
      Duration d = aging.duration();
      validate(q, () -> check.withPriority(check.priority().withAging(d)));
      b.priorityAging(d);
    }
    FlowLimits limits = limits(q);
    if (limits != null) {
      b.clearLimits().limits(limits); // the file says every limit the queue has
    }
    ConfigNode circuit = q.child("circuit");
    if (circuit.present()) {
      b.circuit(circuit(q, circuit));
    }
    return b.build();
  }

  /** {@code circuit = { failures, window, probeInterval, waves = [1, 5, 25], learn }}. */
  private static CircuitPolicy circuit(ConfigNode q, ConfigNode n) {
    n.requireTable();
    n.allowOnly(List.of("failures", "window", "probeInterval", "waves", "learn"));
    CircuitPolicy d = CircuitPolicy.defaults();
    int failures = n.child("failures").present() ? n.child("failures").anyInt() : d.failures();
    Duration window = n.child("window").present() ? n.child("window").duration() : d.window();
    Duration probe =
        n.child("probeInterval").present()
            ? n.child("probeInterval").duration()
            : d.probeInterval();
    List<Integer> waves = d.waves();
    if (n.child("waves").present()) {
      waves = new java.util.ArrayList<>();
      for (ConfigNode w : n.child("waves").array()) {
        waves.add(w.anyInt());
      }
    }
    boolean learn = n.child("learn").present() && n.child("learn").bool();
    List<Integer> w = waves;
    return validate(q, () -> new CircuitPolicy(failures, window, probe, w, learn));
  }

  /** The flow limits a queue declares, or null when it names none of them. */
  private static FlowLimits limits(ConfigNode q) {
    ConfigNode maxRunning = q.child("maxRunning");
    ConfigNode perKey = q.child("maxRunningPerKey");
    ConfigNode rate = q.child("rate");
    ConfigNode ratePerKey = q.child("ratePerKey");
    if (!maxRunning.present() && !perKey.present() && !rate.present() && !ratePerKey.present()) {
      return null;
    }
    Integer running = maxRunning.present() ? maxRunning.anyInt() : null;
    Integer each = perKey.present() ? perKey.anyInt() : null;
    String r = rate.present() ? rate.string() : null;
    String rk = ratePerKey.present() ? ratePerKey.string() : null;
    return validate(
        q,
        () ->
            new FlowLimits(
                running,
                each,
                r == null ? null : Rate.parse("rate", r),
                rk == null ? null : Rate.parse("ratePerKey", rk)));
  }

  /** {@code backoff = { jitter = "full" }}: only the jitter, the delays stay. */
  private static boolean jitterAlone(ConfigNode n) {
    n.requireTable();
    return n.child("jitter").present() && n.entries().size() == 1;
  }

  /** The backoff table's jitter (NONE when absent). */
  private static Jitter jitter(ConfigNode q, ConfigNode n) {
    ConfigNode jitter = n.child("jitter");
    if (!jitter.present()) {
      return Jitter.NONE;
    }
    String text = jitter.string();
    return validate(q, () -> Jitter.parse("backoff.jitter", text));
  }

  private static Backoff backoff(ConfigNode q, ConfigNode n) {
    n.requireTable();
    ConfigNode kind = n.child("kind");
    if (!kind.present()) {
      throw kind.error("is required (exponential or fixed)");
    }
    String k = kind.string().toLowerCase(Locale.ROOT);
    switch (k) {
      case "exponential":
        {
          n.allowOnly(List.of("kind", "initial", "multiplier", "max", "jitter"));
          ExponentialBackoff d = (ExponentialBackoff) Backoff.defaultBackoff();
          Duration initial = n.child("initial").present() ? n.child("initial").duration() : null;
          Duration max = n.child("max").present() ? n.child("max").duration() : null;
          double multiplier =
              n.child("multiplier").present() ? n.child("multiplier").number() : d.multiplier();
          Duration i = initial != null ? initial : d.initial();
          Duration m = max != null ? max : (i.compareTo(d.max()) > 0 ? i : d.max());
          return validate(q, () -> new ExponentialBackoff(i, multiplier, m));
        }
      case "fixed":
        {
          n.allowOnly(List.of("kind", "cooldown", "jitter"));
          ConfigNode cooldown = n.child("cooldown");
          if (!cooldown.present()) {
            throw cooldown.error("is required for a fixed backoff");
          }
          Duration c = cooldown.duration();
          return validate(q, () -> new FixedBackoff(c));
        }
      default:
        throw kind.error(
            "unknown backoff kind \"" + kind.string() + "\" (use exponential or fixed)");
    }
  }

  private static DeadLetter deadLetter(ConfigNode q) {
    ConfigNode mode = q.child("deadLetter");
    ConfigNode queue = q.child("deadLetterQueue");
    String target = queue.present() ? queue.string() : null;
    if (!mode.present()) {
      return target == null ? null : validate(q, () -> DeadLetter.moveTo(target));
    }
    DeadLetter.Mode m = oneOf(mode, DeadLetter.Mode.class, "keep, move or discard");
    return validate(q, () -> new DeadLetter(m, target));
  }

  private static <E extends Enum<E>> E oneOf(ConfigNode n, Class<E> type, String choices) {
    String text = n.string();
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(text)) {
        return e;
      }
    }
    throw n.error("unknown value \"" + text + "\" (use " + choices + ")");
  }

  /**
   * The rules the file alone can break: a queue is not its own dead-letter queue, a dead-letter
   * queue declared here has none of its own, and a queue that is a declared queue's dead-letter
   * queue is given none. That the dead-letter queue exists is checked when the declarations are
   * applied (it may already be in the store).
   */
  private static void checkDeadLetters(ConfigNode queues, Map<String, QueueUpdate> declared) {
    for (Map.Entry<String, QueueUpdate> e : declared.entrySet()) {
      String name = e.getKey();
      String target = moveTarget(e.getValue());
      if (target == null) {
        continue;
      }
      ConfigNode at = queues.child(name).child("deadLetterQueue");
      if (target.equals(name)) {
        throw at.error("queue \"" + name + "\" cannot be its own dead-letter queue");
      }
      QueueUpdate dlq = declared.get(target);
      String next = dlq == null ? null : moveTarget(dlq);
      if (next != null) {
        throw at.error(
            "queue \""
                + target
                + "\" already has its own dead-letter queue \""
                + next
                + "\" (dead-letter queues cannot be chained)");
      }
      List<String> referrers = new ArrayList<>();
      for (Map.Entry<String, QueueUpdate> r : declared.entrySet()) {
        if (name.equals(moveTarget(r.getValue()))) {
          referrers.add("\"" + r.getKey() + "\"");
        }
      }
      if (!referrers.isEmpty()) {
        throw at.error(
            "queue \""
                + name
                + "\" is the dead-letter queue of "
                + String.join(", ", referrers)
                + " and cannot have one itself (dead-letter queues cannot be chained)");
      }
    }
  }

  static String moveTarget(QueueUpdate u) {
    DeadLetter dl = u.deadLetter();
    return dl != null && dl.mode() == DeadLetter.Mode.MOVE ? dl.queue() : null;
  }

  private static <T> T validate(ConfigNode q, java.util.function.Supplier<T> check) {
    try {
      return check.get();
    } catch (IllegalArgumentException e) {
      throw q.errorAtField(e);
    }
  }
}
