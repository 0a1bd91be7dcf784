package io.redrive.worker;

import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettleResult;
import io.redrive.message.MessageState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker machinery's one logger and the lines it writes about a message's fate. The name stays
 * {@value #NAME}, as docs/worker.md promises, but is spelled out so no class below {@link Worker}'s
 * facade depends on it. Stateless apart from the worker id; any thread.
 */
final class WorkerLog {
  /** The logger name every class of the worker's machinery writes to. */
  static final String NAME = "io.redrive.worker.Worker";

  static final Logger LOG = LoggerFactory.getLogger(NAME);

  private final String workerId;

  WorkerLog(String workerId) {
    this.workerId = workerId;
  }

  void poisoned(String id, String queue) {
    LOG.error(
        "message {} (queue {}) is poison: it exceeded its attempts and was dead-lettered"
            + " without calling a handler (worker {})",
        id,
        queue,
        workerId);
  }

  void crashPoisoned(String id, String queue) {
    LOG.error(
        "message {} (queue {}) is poison: its lease ran out on maxCrashes distinct workers (the"
            + " crash-loop breaker) and it was dead-lettered without calling a handler (worker {})",
        id,
        queue,
        workerId);
  }

  void expired(String id, String queue) {
    LOG.error(
        "message {} (queue {}) passed its deadline and was dead-lettered as EXPIRED (worker {})",
        id,
        queue,
        workerId);
  }

  /** A failure's outcome: dead (ERROR) or to be retried (WARN); a slow-down (INFO). */
  void failed(LeasedMessage m, SettleCommand command, SettleResult s) {
    if (!(command instanceof SettleCommand.Fail request)) {
      LOG.info("{} slowed down; next delivery at {}", about(m), s.visibleAt());
    } else if (s.state() == MessageState.DEAD) {
      LOG.error(
          "{} is dead ({}): {}{}",
          about(m),
          request.reason(),
          request.message(),
          s.deadLetterQueue() != null
              ? "; moved to " + s.deadLetterQueue()
              : s.discarded() ? "; discarded" : "; kept in place");
    } else {
      LOG.warn(
          "{} failed ({}): {}; next delivery at {}",
          about(m),
          request.reason(),
          request.message(),
          s.visibleAt());
    }
  }

  void leaseLost(LeasedMessage m) {
    LOG.warn(
        "{} finished after its lease was lost (expired and re-leased or settled elsewhere); its"
            + " result is discarded",
        about(m));
  }

  void couldNotSettle(LeasedMessage m, RuntimeException e) {
    LOG.error(
        "{} could not be settled; its lease will expire and it will be delivered again",
        about(m),
        e);
  }

  /** How every line about one delivery names it. */
  private String about(LeasedMessage m) {
    return "message "
        + m.id()
        + " (type "
        + m.type()
        + ", queue "
        + m.queue()
        + ", attempt "
        + m.attempt()
        + "/"
        + m.maxAttempts()
        + ", worker "
        + workerId
        + ")";
  }
}
