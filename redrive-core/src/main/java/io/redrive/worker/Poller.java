package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Leases batches as long as slots are free and splits each into runs: every non-stream message
 * alone, the messages of one stream together in order. Sleeps between empty polls with a growing
 * interval that a ready signal (in-process enqueue, PostgreSQL NOTIFY), a settle or a freed slot
 * cuts short. While its leases come back full (a backlog), it carries the settles queued meanwhile
 * into its next lease's transaction ({@link SettleBatcher#settleThenLease}): a batch then costs one
 * commit, and the slots those settles free count as free for that lease.
 *
 * <p>Owned by its own thread, the poller; {@link #stopLeasing} and {@link #join} are called by the
 * stopping thread.
 */
final class Poller {
  /** How long the poller may hold free slots back to lease a fuller batch. */
  private static final Duration PARTIAL_BATCH_LINGER = Duration.ofMillis(10);

  private final Redrive redrive;
  private final WorkerConfig config;
  private final Duration leaseTimeout;
  private final Slots slots;
  private final Runner runner;
  private final Wakeup wakeup;
  private final SettleBatcher settles;
  private final WorkerLog log;
  private final Thread thread;
  private volatile boolean leasing = true;
  // owned by the poller thread
  private Duration idle;
  private long partialSince;

  Poller(
      Redrive redrive,
      WorkerConfig config,
      Duration leaseTimeout,
      Slots slots,
      Runner runner,
      Wakeup wakeup,
      SettleBatcher settles,
      WorkerLog log) {
    this.redrive = redrive;
    this.config = config;
    this.leaseTimeout = leaseTimeout;
    this.slots = slots;
    this.runner = runner;
    this.wakeup = wakeup;
    this.settles = settles;
    this.log = log;
    this.idle = config.pollMin();
    this.thread = new Thread(this::poll, "redrive-poller-" + config.id());
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  boolean leasing() {
    return leasing;
  }

  /** The poller leases nothing more and ends once its current call (or nap) returns. */
  void stopLeasing() {
    leasing = false;
  }

  /** Waits up to {@code max} for the poller thread to end. */
  void join(Duration max) {
    try {
      thread.join(max.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void poll() {
    try {
      while (leasing) {
        if (!round()) {
          return;
        }
      }
    } finally {
      settles.carry(false);
    }
  }

  /** One turn of the loop: waits, or leases and dispatches; false once interrupted. */
  private boolean round() {
    try {
      int free = slots.free();
      int carry = settles.queuedFreeing(); // slots the commit that carries them frees
      if (free + carry == 0) { // settles not yet committed hold their slots, so this bounds them
        wakeup.await(config.pollMax());
        return true;
      }
      // Under a backlog, slots free up a few at a time; leasing each trickle would split one
      // batch into many small ones, each paying a whole transaction. Wait briefly for half a
      // batch of free slots while handlers are still running, and for the whole batch while
      // the other slots only wait for their settle to commit: they free together within one
      // commit, and leasing before them splits the worker into two half batches for good, each
      // paying its own lease and settle transactions.
      int fullBatch = Math.min(config.batchSize(), config.concurrency());
      int usable = free + carry;
      // Runs still going beside carried settles are most often the rest of the same batch.
      boolean aboutToFree =
          usable < fullBatch
              && (settles.pending() > carry || carry > 0 && slots.inFlight() > settles.pending());
      if ((aboutToFree || usable < (fullBatch + 1) / 2) && !slots.idle()) {
        long now = System.nanoTime();
        if (partialSince == 0) {
          partialSince = now;
        }
        long lingerNanos = Math.min(PARTIAL_BATCH_LINGER.toNanos(), config.pollMax().toNanos());
        long left = lingerNanos - (now - partialSince);
        if (left > 0) {
          wakeup.await(Duration.ofNanos(left));
          return true;
        }
      }
      partialSince = 0;
      int[] asked = {0};
      LeaseResult result =
          carry > 0
              ? settles.settleThenLease(
                  freeing -> {
                    asked[0] = Math.min(config.batchSize(), free + freeing);
                    return asked[0] == 0 ? null : request(asked[0]);
                  })
              : null;
      if (result == null) { // nothing to carry (the settle thread may have taken it meanwhile)
        if (free == 0) {
          return true;
        }
        asked[0] = Math.min(config.batchSize(), free);
        result = redrive.lease(request(asked[0]));
      }
      reportDeaths(result);
      // A full lease says a backlog: carry the settles into the next lease. A short one says the
      // queue is drained: let each settle commit at once.
      settles.carry(asked[0] > 0 && result.leased().size() >= asked[0]);
      if (result.leased().isEmpty()) {
        idle = wakeup.await(idle) ? config.pollMin() : twice(idle, config.pollMax());
        return true;
      }
      idle = config.pollMin();
      dispatch(result.leased());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (RuntimeException e) {
      settles.carry(false);
      WorkerLog.LOG.warn(
          "worker {} could not lease from {}; retrying in {}: {}",
          config.id(),
          config.queue(),
          config.pollMax(),
          e.toString());
      try {
        wakeup.await(config.pollMax());
        return true;
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  private LeaseRequest request(int max) {
    return new LeaseRequest(config.queue(), config.id(), max, leaseTimeout, config.leaseTypes());
  }

  private void reportDeaths(LeaseResult result) {
    for (String id : result.poisoned()) {
      if (result.crashPoisoned().contains(id)) {
        log.crashPoisoned(id, config.queue());
      } else {
        log.poisoned(id, config.queue());
      }
    }
    for (String id : result.expired()) {
      log.expired(id, config.queue());
    }
  }

  private void dispatch(List<LeasedMessage> leased) throws InterruptedException {
    long now = System.nanoTime();
    List<Run> runs = new ArrayList<>();
    Map<String, List<HeldLease>> streams = new LinkedHashMap<>();
    for (LeasedMessage m : leased) {
      HeldLease h = new HeldLease(m, now);
      if (m.stream() == null) {
        runs.add(new Run(List.of(h)));
      } else {
        streams.computeIfAbsent(m.stream(), s -> new ArrayList<>()).add(h);
      }
    }
    streams.values().forEach(list -> runs.add(new Run(list)));
    runs.forEach(slots::hold);
    // Every run takes its slot before any starts (a lease never asks for more than the free slots,
    // so none waits): a quick handler finishing before the others were in flight would otherwise
    // commit its settle alone, and split the batch's completions into several statements.
    for (Run run : runs) {
      slots.take(run);
    }
    runs.forEach(runner::start);
  }

  private static Duration twice(Duration d, Duration max) {
    Duration next = d.multipliedBy(2);
    return next.compareTo(max) > 0 ? max : next;
  }
}
