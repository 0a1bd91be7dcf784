package io.redrive.spring;

import io.redrive.Redrive;
import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.QueueUpdate;
import io.redrive.queue.Rate;
import io.redrive.retry.Jitter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Declares the application's queues on start, those of {@code redrive.queues.*} and the {@link
 * RedriveQueue} beans: each is created when missing, else given the fields set (the others keep
 * their value). Every queue is declared before any dead-letter target is set, so a queue may name
 * another one declared here as its dead-letter queue, in any order. A bad value stops the
 * application naming the queue (and, for properties, the property).
 */
final class QueueDeclarations {
  private QueueDeclarations() {}

  static void declare(
      Redrive redrive, Map<String, QueueProperties> properties, List<RedriveQueue> beans) {
    List<RedriveQueue> all = new ArrayList<>();
    properties.forEach(
        (name, q) ->
            all.add(new RedriveQueue(name, run("redrive.queues." + name, () -> fields(q)))));
    all.addAll(beans);
    for (RedriveQueue q : all) {
      run(
          where(q, properties),
          () -> redrive.declareQueue(q.name(), withoutDeadLetter(q.declared())));
    }
    for (RedriveQueue q : all) {
      if (q.declared().deadLetter() != null) {
        run(
            where(q, properties),
            () ->
                redrive.declareQueue(
                    q.name(), QueueUpdate.builder().deadLetter(q.declared().deadLetter()).build()));
      }
    }
  }

  private static String where(RedriveQueue q, Map<String, QueueProperties> props) {
    return props.containsKey(q.name()) ? "redrive.queues." + q.name() : "queue " + q.name();
  }

  private static QueueUpdate withoutDeadLetter(QueueUpdate u) {
    return new QueueUpdate(
        u.maxAttempts(),
        u.leaseTimeout(),
        u.backoff(),
        u.expireAfter(),
        u.clearExpireAfter(),
        null,
        u.streamPolicy(),
        null,
        u.maxCrashes(),
        u.completedRetention(),
        u.clearCompletedRetention(),
        u.defaultPriority(),
        u.priorityAging(),
        u.limits(),
        u.clearLimits(),
        u.backoffJitter(),
        u.circuit(),
        u.clearCircuit());
  }

  private static QueueUpdate fields(QueueProperties q) {
    QueueUpdate.Builder b = QueueUpdate.builder();
    if (q.getMaxAttempts() != null) {
      b.maxAttempts(q.getMaxAttempts());
    }
    if (q.getLeaseTimeout() != null) {
      b.leaseTimeout(q.getLeaseTimeout());
    }
    if (q.getExpireAfter() != null) {
      b.expireAfter(q.getExpireAfter());
    }
    if (q.getMaxCrashes() != null) {
      b.maxCrashes(q.getMaxCrashes());
    }
    if (q.getCompletedRetention() != null) {
      b.completedRetention(q.getCompletedRetention());
    }
    if (q.getDeadLetter() != null) {
      b.deadLetter(deadLetter(q.getDeadLetter()));
    }
    if (q.getDefaultPriority() != null) {
      b.defaultPriority(q.getDefaultPriority());
    }
    if (q.getPriorityAging() != null) {
      b.priorityAging(q.getPriorityAging());
    }
    if (q.getBackoffJitter() != null) {
      b.backoffJitter(Jitter.parse("backoffJitter", q.getBackoffJitter()));
    }
    if (q.getCircuitFailures() != null
        || q.getCircuitWindow() != null
        || q.getCircuitProbeInterval() != null
        || q.getCircuitWaves() != null
        || q.getCircuitLearn() != null) {
      CircuitPolicy d = CircuitPolicy.defaults();
      b.circuit(
          new CircuitPolicy(
              q.getCircuitFailures() != null ? q.getCircuitFailures() : d.failures(),
              q.getCircuitWindow() != null ? q.getCircuitWindow() : d.window(),
              q.getCircuitProbeInterval() != null ? q.getCircuitProbeInterval() : d.probeInterval(),
              q.getCircuitWaves() != null
                  ? CircuitPolicy.parseWaves("circuitWaves", q.getCircuitWaves())
                  : d.waves(),
              Boolean.TRUE.equals(q.getCircuitLearn())));
    }
    FlowLimits limits = limits(q);
    if (limits != null) {
      b.clearLimits().limits(limits); // as in redrive.toml: the limits named are all it has
    }
    return b.build();
  }

  /** The flow limits a queue's properties name, or null when they name none. */
  private static FlowLimits limits(QueueProperties q) {
    if (q.getMaxRunning() == null
        && q.getMaxRunningPerKey() == null
        && q.getRate() == null
        && q.getRatePerKey() == null) {
      return null;
    }
    return new FlowLimits(
        q.getMaxRunning(),
        q.getMaxRunningPerKey(),
        q.getRate() == null ? null : Rate.parse("rate", q.getRate()),
        q.getRatePerKey() == null ? null : Rate.parse("ratePerKey", q.getRatePerKey()));
  }

  private static DeadLetter deadLetter(String value) {
    return switch (value) {
      case "keep" -> DeadLetter.keep();
      case "discard" -> DeadLetter.discard();
      default -> DeadLetter.moveTo(value);
    };
  }

  /** Runs one declaration step; bad input is reported under {@code where}. */
  private static <T> T run(String where, java.util.function.Supplier<T> step) {
    try {
      return step.get();
    } catch (IllegalArgumentException e) {
      // Not chained: the message carries the whole story, and Spring shows the root cause.
      throw new IllegalArgumentException(where + ": " + e.getMessage());
    }
  }
}
