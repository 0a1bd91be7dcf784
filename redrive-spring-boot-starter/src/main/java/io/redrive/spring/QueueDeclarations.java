package io.redrive.spring;

import io.redrive.Redrive;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueueUpdate;
import java.util.Map;

/**
 * Declares the queues of {@code redrive.queues.*} on start: each is created when missing, else
 * given the fields set (the others keep their value). Every queue is declared before any
 * dead-letter target is set, so a queue may name another one declared here as its dead-letter
 * queue, in any order. A bad value stops the application naming the property.
 */
final class QueueDeclarations {
  private QueueDeclarations() {}

  static void declare(Redrive redrive, Map<String, RedriveProperties.QueueSettings> queues) {
    queues.forEach((name, q) -> run(name, () -> redrive.declareQueue(name, fields(q))));
    queues.forEach(
        (name, q) -> {
          if (q.getDeadLetter() != null) {
            run(
                name,
                () ->
                    redrive.declareQueue(
                        name,
                        QueueUpdate.builder().deadLetter(deadLetter(q.getDeadLetter())).build()));
          }
        });
  }

  private static QueueUpdate fields(RedriveProperties.QueueSettings q) {
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
    return b.build();
  }

  private static DeadLetter deadLetter(String value) {
    return switch (value) {
      case "keep" -> DeadLetter.keep();
      case "discard" -> DeadLetter.discard();
      default -> DeadLetter.moveTo(value);
    };
  }

  /** Runs one declaration; bad input is reported under the queue's property prefix. */
  private static void run(String name, Runnable declaration) {
    try {
      declaration.run();
    } catch (IllegalArgumentException e) {
      // Not chained: the message carries the whole story, and Spring shows the root cause.
      throw new IllegalArgumentException("redrive.queues." + name + ": " + e.getMessage());
    }
  }
}
