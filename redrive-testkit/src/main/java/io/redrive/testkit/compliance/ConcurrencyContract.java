package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.retry.ExponentialBackoff;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real threads on three stores ("nodes") sharing one database and one clock: no message is held by
 * two live leases, a stale token never settles, and every message ends completed or dead exactly
 * once with a history that counts every delivery.
 */
public abstract class ConcurrencyContract extends ComplianceTestBase {
  private static final int NODES = 3;
  private static final int WORKERS = 8;
  private static final Set<Outcome> DELIVERY_OUTCOMES =
      EnumSet.of(
          Outcome.LEASED,
          Outcome.COMPLETED,
          Outcome.FAILED,
          Outcome.ABANDONED,
          Outcome.RELEASED,
          Outcome.LEASE_EXPIRED);

  /** This test's engine plus two more, each on its own store over the same database. */
  private List<Redrive> openNodes() {
    List<Redrive> nodes = new ArrayList<>();
    nodes.add(redrive);
    for (int i = 1; i < NODES; i++) {
      nodes.add(Redrive.builder(db.openStore()).clock(clock).build());
    }
    return nodes;
  }

  private Set<String> enqueueMessages(int count) {
    Set<String> ids = new HashSet<>();
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      batch.add(newMessage(QUEUE).payload("{\"n\":" + i + "}").build());
      if (batch.size() == 500 || i == count - 1) {
        redrive.enqueueBatch(batch).forEach(r -> ids.add(r.id()));
        batch.clear();
      }
    }
    return ids;
  }

  private static Thread start(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static void joinAll(List<Thread> threads) throws InterruptedException {
    for (Thread thread : threads) {
      thread.join(60_000);
      assertThat(thread.isAlive()).as("%s still running", thread.getName()).isFalse();
    }
  }

  @Test
  @Timeout(60)
  void lease_manyWorkersOnThreeNodes_eachMessageLeasedExactlyOnce() throws Exception {
    createQueue(QUEUE);
    int count = 600;
    Set<String> enqueued = enqueueMessages(count);
    List<Redrive> nodes = openNodes();
    ConcurrentLinkedQueue<String> leased = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < WORKERS; w++) {
      Redrive node = nodes.get(w % NODES);
      String worker = "worker-" + w;
      threads.add(
          start(
              worker,
              () -> {
                try {
                  go.await();
                  int empty = 0;
                  while (empty < 2) {
                    LeaseResult r = node.lease(new LeaseRequest(QUEUE, worker, 7, LONG_LEASE));
                    r.leased().forEach(m -> leased.add(m.id()));
                    empty = r.leased().isEmpty() ? empty + 1 : 0;
                  }
                } catch (Throwable e) {
                  errors.add(e);
                }
              }));
    }

    go.countDown();
    joinAll(threads);
    List<LeasedMessage> sweep;
    while (!(sweep = lease(QUEUE, 100, LONG_LEASE).leased()).isEmpty()) {
      sweep.forEach(m -> leased.add(m.id()));
    }

    assertThat(errors).isEmpty();
    assertThat(leased).doesNotHaveDuplicates().hasSize(count);
    assertThat(new HashSet<>(leased)).isEqualTo(enqueued);
    assertThat(stats(QUEUE).leased()).isEqualTo(count);
  }

  @Test
  @Timeout(60)
  void settle_sameTokenFromManyThreads_exactlyOneSucceeds() throws Exception {
    createQueue(QUEUE);
    int count = 25;
    enqueueMessages(count);
    List<Redrive> nodes = openNodes();
    List<LeasedMessage> leases = lease(QUEUE, count, LONG_LEASE).leased();
    assertThat(leases).hasSize(count);
    Map<String, AtomicInteger> successes = new ConcurrentHashMap<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    int racers = 4;
    CyclicBarrier barrier = new CyclicBarrier(racers);
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < racers; r++) {
      Redrive node = nodes.get(r % NODES);
      boolean completes = r % 2 == 0;
      threads.add(
          start(
              "racer-" + r,
              () -> {
                for (LeasedMessage m : leases) {
                  try {
                    barrier.await();
                    SettleResult settled =
                        completes
                            ? node.complete(m.token())
                            : node.fail(
                                FailRequest.of(
                                    m.token(), FailureReason.VALIDATION_FAILURE, "race"));
                    if (!settled.repeated()) { // a repeat of a completion changed nothing
                      successes.computeIfAbsent(m.id(), k -> new AtomicInteger()).incrementAndGet();
                    }
                  } catch (LeaseNotFoundException | LeaseLostException expected) {
                    // another racer settled first
                  } catch (Throwable e) {
                    errors.add(e);
                  }
                }
              }));
    }
    joinAll(threads);

    assertThat(errors).isEmpty();
    for (LeasedMessage m : leases) {
      assertThat(successes.get(m.id())).as("successful settles of %s", m.id()).hasValue(1);
    }
    assertThat(stats(QUEUE).leased()).isZero();
  }

  @Test
  @Timeout(60)
  void expiredLease_oldHolderCompletesWhileOtherNodeLeases_neverBoth() throws Exception {
    createQueue(QUEUE);
    List<Redrive> nodes = openNodes();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    for (int round = 0; round < 30; round++) {
      String id = enqueue(QUEUE);
      LeasedMessage first = leaseOne(QUEUE, Duration.ofSeconds(5));
      advance(Duration.ofSeconds(5));
      CyclicBarrier barrier = new CyclicBarrier(2);
      AtomicInteger completed = new AtomicInteger();
      List<LeasedMessage> released = Collections.synchronizedList(new ArrayList<>());
      Thread holder =
          start(
              "holder",
              () -> {
                try {
                  barrier.await();
                  nodes.get(1).complete(first.token());
                  completed.incrementAndGet();
                } catch (LeaseLostException expected) {
                  // re-leased first
                } catch (Throwable e) {
                  errors.add(e);
                }
              });
      Thread leaser =
          start(
              "leaser",
              () -> {
                try {
                  barrier.await();
                  released.addAll(
                      nodes.get(2).lease(new LeaseRequest(QUEUE, "w2", 1, LONG_LEASE)).leased());
                } catch (Throwable e) {
                  errors.add(e);
                }
              });
      joinAll(List.of(holder, leaser));

      assertThat(errors).isEmpty();
      assertThat(completed.get() + released.size()).as("round %d", round).isEqualTo(1);
      if (!released.isEmpty()) {
        assertThat(released.get(0).id()).isEqualTo(id);
        assertThat(released.get(0).attempt()).isEqualTo(2);
        complete(released.get(0));
      }
    }
  }

  // ---- the chaos run ----

  /** One lease as the worker saw it. */
  private record LeaseRecord(
      String id,
      String token,
      int attempt,
      Instant leasedAt,
      Instant expiresAt,
      long returnedSeq) {}

  /** A successful settle; {@code startedSeq} was taken just before the call. */
  private record SettleRecord(String token, long startedSeq) {}

  /** Everything the workers saw, for the checks at the end. */
  private static final class Ledger {
    final AtomicLong seq = new AtomicLong();
    final Map<String, List<LeaseRecord>> leases = new ConcurrentHashMap<>();
    final Map<String, SettleRecord> settles = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> completes = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> deaths = new ConcurrentHashMap<>();
    final Set<String> finished = ConcurrentHashMap.newKeySet();
    final AtomicInteger poisoned = new AtomicInteger();
    final AtomicInteger lateSettled = new AtomicInteger();
    final AtomicInteger lateLost = new AtomicInteger();
    final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();

    void leased(LeasedMessage m, Instant now, long returnedSeq) {
      leases
          .computeIfAbsent(m.id(), k -> Collections.synchronizedList(new ArrayList<>()))
          .add(
              new LeaseRecord(
                  m.id(), m.token(), m.attempt(), now, m.leaseExpiresAt(), returnedSeq));
    }

    void settled(String id, String token, long startedSeq, SettleResult result) {
      settles.put(token, new SettleRecord(token, startedSeq));
      if (result.state() == MessageState.COMPLETED) {
        completes.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        finished.add(id);
      } else if (result.state() == MessageState.DEAD) {
        died(id);
      }
    }

    void died(String id) {
      deaths.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
      finished.add(id);
    }
  }

  /** A worker thread: each round it settles due late tokens, leases a batch and acts on it. */
  private final class ChaosWorker implements Runnable {
    private final Redrive node;
    private final String name;
    private final Random random;
    private final Ledger ledger;
    private final CyclicBarrier barrier;
    private final boolean[] done;
    private final List<LeasedMessage> late = new ArrayList<>();
    private final List<Integer> lateDue = new ArrayList<>();
    private int round;

    ChaosWorker(Redrive node, int index, Ledger ledger, CyclicBarrier barrier, boolean[] done) {
      this.node = node;
      this.name = "chaos-" + index;
      this.random = new Random(1234L + index);
      this.ledger = ledger;
      this.barrier = barrier;
      this.done = done;
    }

    @Override
    public void run() {
      while (true) {
        try {
          step();
        } catch (Throwable e) {
          ledger.errors.add(name + ": " + e);
        }
        try {
          barrier.await();
        } catch (InterruptedException | BrokenBarrierException e) {
          ledger.errors.add(name + ": barrier " + e);
          return;
        }
        round++;
        synchronized (done) {
          if (done[0]) {
            return;
          }
        }
      }
    }

    private void step() {
      settleLateTokens();
      LeaseResult result = node.lease(LeaseRequest.of(QUEUE, name, 1 + random.nextInt(20)));
      long returned = ledger.seq.incrementAndGet();
      Instant now = clock.instant();
      result.poisoned().forEach(ledger::died);
      ledger.poisoned.addAndGet(result.poisoned().size());
      result.expired().forEach(id -> ledger.errors.add("unexpected expiry of " + id));
      for (LeasedMessage m : result.leased()) {
        ledger.leased(m, now, returned);
      }
      for (LeasedMessage m : result.leased()) {
        act(m);
      }
    }

    private void act(LeasedMessage m) {
      int dice = random.nextInt(100);
      if (dice < 8) {
        return; // the worker vanishes: the lease runs out
      }
      if (dice < 13) {
        late.add(m); // the worker stalls and settles after its lease ran out
        lateDue.add(round + 4);
        return;
      }
      long started = ledger.seq.incrementAndGet();
      try {
        SettleResult result;
        if (dice < 60) {
          result = node.complete(m.token());
        } else if (dice < 80) {
          result = node.fail(FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "boom"));
        } else if (dice < 85) {
          result = node.fail(FailRequest.of(m.token(), FailureReason.VALIDATION_FAILURE, "bad"));
        } else {
          Duration delay = random.nextBoolean() ? Duration.ZERO : Duration.ofSeconds(1);
          result = node.abandon(new AbandonRequest(m.token(), delay, random.nextBoolean(), null));
        }
        ledger.settled(m.id(), m.token(), started, result);
      } catch (RuntimeException e) {
        ledger.errors.add(name + ": settling a live lease of " + m.id() + " failed: " + e);
      }
    }

    private void settleLateTokens() {
      for (int i = late.size() - 1; i >= 0; i--) {
        if (lateDue.get(i) > round) {
          continue;
        }
        LeasedMessage m = late.remove(i);
        lateDue.remove(i);
        long started = ledger.seq.incrementAndGet();
        try {
          ledger.settled(m.id(), m.token(), started, node.complete(m.token()));
          ledger.lateSettled.incrementAndGet();
        } catch (LeaseLostException | LeaseNotFoundException expected) {
          // re-leased (or finished) by someone else after the lease ran out
          ledger.lateLost.incrementAndGet();
        }
      }
    }
  }

  @Test
  @Timeout(180)
  void chaos_workersOnThreeNodes_everyMessageFinishesOnceAndNoLeaseOverlaps() throws Exception {
    int count = 2000;
    int maxRounds = 600;
    QueuePolicy policy =
        defaults()
            .withMaxAttempts(4)
            .withLeaseTimeout(Duration.ofSeconds(3))
            .withBackoff(new ExponentialBackoff(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(4)));
    createQueue(QUEUE, policy);
    Set<String> enqueued = enqueueMessages(count);
    List<Redrive> nodes = openNodes();
    Ledger ledger = new Ledger();
    boolean[] done = {false};
    AtomicInteger rounds = new AtomicInteger();
    CyclicBarrier barrier =
        new CyclicBarrier(
            WORKERS,
            () -> {
              clock.advance(Duration.ofSeconds(1));
              if (ledger.finished.size() >= count || rounds.incrementAndGet() >= maxRounds) {
                synchronized (done) {
                  done[0] = true;
                }
              }
            });
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < WORKERS; w++) {
      threads.add(
          start("chaos-" + w, new ChaosWorker(nodes.get(w % NODES), w, ledger, barrier, done)));
    }
    for (Thread thread : threads) {
      thread.join(170_000);
    }

    assertThat(ledger.errors).isEmpty();
    assertThat(rounds.get()).as("rounds needed").isLessThan(maxRounds);
    assertThat(ledger.finished).isEqualTo(enqueued);
    ledger.completes.forEach(
        (id, n) -> assertThat(n.get()).as("completions of %s", id).isEqualTo(1));
    ledger.deaths.forEach((id, n) -> assertThat(n.get()).as("deaths of %s", id).isEqualTo(1));
    assertThat(Collections.disjoint(ledger.completes.keySet(), ledger.deaths.keySet())).isTrue();
    assertScenarioCoveredEveryPath(ledger, count);
    assertNoOverlappingLeases(ledger);
    assertDeadHistoriesCountEveryDelivery(ledger, policy);
    QueueStats stats = stats(QUEUE);
    assertThat(stats.dead()).isEqualTo(ledger.deaths.size());
    assertThat(stats.total()).isEqualTo(ledger.deaths.size());
  }

  /** Guards against a run that passes because it never reached the interesting cases. */
  private static void assertScenarioCoveredEveryPath(Ledger ledger, int count) {
    long leases = ledger.leases.values().stream().mapToLong(List::size).sum();
    long redelivered = ledger.leases.values().stream().filter(l -> l.size() > 1).count();
    assertThat(leases).as("leases").isGreaterThan(count);
    assertThat(redelivered).as("messages delivered more than once").isGreaterThan(0);
    assertThat(ledger.poisoned.get()).as("poisoned").isGreaterThan(0);
    assertThat(ledger.deaths.size()).as("dead").isGreaterThan(ledger.poisoned.get());
    assertThat(ledger.lateSettled.get() + ledger.lateLost.get())
        .as("late settles")
        .isGreaterThan(0);
  }

  private static void assertNoOverlappingLeases(Ledger ledger) {
    Set<String> tokens = new HashSet<>();
    ledger.leases.forEach(
        (id, list) -> {
          List<LeaseRecord> leases = new ArrayList<>(list);
          leases.sort(Comparator.comparingLong(LeaseRecord::returnedSeq));
          for (int i = 0; i < leases.size(); i++) {
            LeaseRecord lease = leases.get(i);
            assertThat(tokens.add(lease.token()))
                .as("token %s issued twice", lease.token())
                .isTrue();
            if (i == 0) {
              continue;
            }
            LeaseRecord previous = leases.get(i - 1);
            SettleRecord settle = ledger.settles.get(previous.token());
            if (settle != null) {
              assertThat(settle.startedSeq())
                  .as("%s: lease %d settled after lease %d was taken", id, i - 1, i)
                  .isLessThan(lease.returnedSeq());
            } else {
              assertThat(lease.leasedAt())
                  .as("%s: lease %d taken while lease %d was live", id, i, i - 1)
                  .isAfterOrEqualTo(previous.expiresAt());
            }
          }
        });
  }

  private void assertDeadHistoriesCountEveryDelivery(Ledger ledger, QueuePolicy policy) {
    for (String id : ledger.deaths.keySet()) {
      Message m = message(id);
      assertThat(m.state()).isEqualTo(MessageState.DEAD);
      long deliveries =
          m.history().stream()
              .map(HistoryEntry::outcome)
              .filter(DELIVERY_OUTCOMES::contains)
              .count();
      assertThat(deliveries)
          .as("deliveries in the history of %s", id)
          .isEqualTo(ledger.leases.getOrDefault(id, List.of()).size());
      assertThat(m.attempts()).isLessThanOrEqualTo(policy.maxAttempts());
    }
  }
}
