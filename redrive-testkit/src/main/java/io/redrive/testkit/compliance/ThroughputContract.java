package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.message.NewMessage;
import io.redrive.message.OnDuplicate;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.ThroughputPoint;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Per-minute throughput counters and depth snapshots (docs/engine.md, "Throughput counters"): each
 * counter through the engine's real paths, bucketing by the store clock's minute, sums over queues,
 * gap filling, one snapshot per minute whichever node comes first, retention, exact counts from
 * many threads settling one queue at once, and counts kept in a node's memory reaching other nodes
 * within a write interval and at the node's close.
 */
public abstract class ThroughputContract extends ComplianceTestBase {
  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final ChronoUnit MINUTE_UNIT = ChronoUnit.MINUTES;

  @BeforeEach
  void startOfAMinute() {
    // Every test starts 10 s into a minute, so what it does before advancing stays in that minute.
    long intoMinute = Math.floorMod(now().toEpochMilli(), 60_000L);
    advance(Duration.ofMillis(60_000L - intoMinute + 10_000L));
  }

  /** The current minute's point of {@code queue} (null: every queue). */
  private ThroughputPoint thisMinute(String queue) {
    List<ThroughputPoint> points = redrive.throughput(queue, MINUTE);
    assertThat(points).hasSize(1);
    return points.get(0);
  }

  private static long[] counts(ThroughputPoint p) {
    return new long[] {p.enqueued(), p.completed(), p.failed(), p.dead()};
  }

  @Test
  void enqueue_batch_countsEachMessageButNotDuplicates() {
    createQueue(QUEUE);
    redrive.enqueueBatch(
        List.of(
            newMessage(QUEUE).dedupeKey("a").build(),
            newMessage(QUEUE).dedupeKey("b").build(),
            newMessage(QUEUE).build()));
    redrive.enqueue(newMessage(QUEUE).dedupeKey("a").build()); // duplicate: not counted

    assertThat(counts(thisMinute(QUEUE))).containsExactly(3, 0, 0, 0);
  }

  @Test
  void anotherNode_seesANodesCountsWithinAWriteInterval() {
    createQueue(QUEUE);
    try (Redrive otherNode = Redrive.builder(db.openStore()).clock(clock).build()) {
      otherNode.enqueueBatch(List.of(newMessage(QUEUE).build(), newMessage(QUEUE).build()));

      // Counts wait in the writing node's memory for at most an interval (1 s), then are written.
      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(counts(thisMinute(QUEUE))).containsExactly(2, 0, 0, 0));
    }
  }

  @Test
  void closingAStore_writesItsPendingCounts() {
    createQueue(QUEUE);
    Redrive otherNode = Redrive.builder(db.openStore()).clock(clock).build();
    otherNode.enqueue(newMessage(QUEUE).build());
    otherNode.close();

    assertThat(counts(thisMinute(QUEUE))).containsExactly(1, 0, 0, 0);
  }

  @Test
  void enqueue_onCallersTransaction_countedOnCommitOnly() throws Exception {
    createQueue(QUEUE);
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      redrive.enqueue(c, newMessage(QUEUE).build());
      c.rollback();
      redrive.enqueueBatch(c, List.of(newMessage(QUEUE).build(), newMessage(QUEUE).build()));
      c.commit();
    }

    assertThat(thisMinute(QUEUE).enqueued()).isEqualTo(2);
  }

  @Test
  void enqueue_keptOrReplacedUniqueKeyDuplicates_notCounted() {
    createQueue(QUEUE);
    redrive.enqueueBatch(
        List.of(
            newMessage(QUEUE).uniqueKey("u").build(),
            newMessage(QUEUE).uniqueKey("u").build(),
            newMessage(QUEUE).build()));
    redrive.enqueue(newMessage(QUEUE).uniqueKey("u").onDuplicate(OnDuplicate.REPLACE).build());

    assertThat(thisMinute(QUEUE).enqueued()).isEqualTo(2);
  }

  @Test
  void complete_singleAndBatch_countsEachCompletionOnce() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 4);
    List<LeasedMessage> leased = lease(QUEUE, 4).leased();
    complete(leased.get(0));
    redrive.complete(leased.get(0).token()); // a repeat within the window changes nothing
    redrive.completeAll(leased.subList(1, 4).stream().map(LeasedMessage::token).toList());

    assertThat(counts(thisMinute(QUEUE))).containsExactly(4, 4, 0, 0);
  }

  @Test
  void fail_retryable_countsFailedNotDead() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    fail(leaseOne(QUEUE));

    assertThat(counts(thisMinute(QUEUE))).containsExactly(1, 0, 1, 0);
  }

  @Test
  void fail_permanent_countsFailedAndDead() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    failPermanently(leaseOne(QUEUE));

    assertThat(counts(thisMinute(QUEUE))).containsExactly(1, 0, 1, 1);
  }

  @Test
  void abandon_withReasonCountsFailed_releaseAndPlainAbandonDoNot() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 3);
    List<LeasedMessage> leased = lease(QUEUE, 3).leased();
    redrive.abandon(
        new AbandonRequest(
            leased.get(0).token(),
            Duration.ZERO,
            false,
            "no handler",
            FailureReason.UNREGISTERED_HANDLER));
    redrive.abandon(new AbandonRequest(leased.get(1).token(), Duration.ZERO, true, "shutdown"));
    redrive.release(List.of(leased.get(2).token()));

    assertThat(counts(thisMinute(QUEUE))).containsExactly(3, 0, 1, 0);
  }

  @Test
  void lease_afterALeaseExpired_countsTheLostAttemptAsFailed() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(5));
    advance(Duration.ofSeconds(6));
    leaseOne(QUEUE);

    assertThat(counts(thisMinute(QUEUE))).containsExactly(1, 0, 1, 0);
  }

  @Test
  void lease_poisonAfterExpiredLease_countsFailedAndDead() {
    createQueue(QUEUE, defaults().withMaxAttempts(1));
    enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(5));
    advance(Duration.ofSeconds(6));

    LeaseResult r = lease(QUEUE, 1);

    assertThat(r.poisoned()).hasSize(1);
    assertThat(counts(thisMinute(QUEUE))).containsExactly(1, 0, 1, 1);
  }

  @Test
  void expireDue_pastDeadline_countsDead() {
    createQueue(QUEUE);
    enqueue(newMessage(QUEUE).expireAfter(Duration.ofSeconds(5)).build());
    enqueue(newMessage(QUEUE).expireAfter(Duration.ofSeconds(5)).build());
    leaseOne(QUEUE, LONG_LEASE);
    advance(Duration.ofSeconds(10));

    assertThat(redrive.expireDue()).isEqualTo(2);
    assertThat(counts(thisMinute(QUEUE))).containsExactly(2, 0, 0, 2);
  }

  @Test
  void lease_pastDeadline_countsDead() {
    createQueue(QUEUE);
    enqueue(newMessage(QUEUE).expireAfter(Duration.ofSeconds(5)).build());
    advance(Duration.ofSeconds(10));

    assertThat(lease(QUEUE, 1).expired()).hasSize(1);
    assertThat(thisMinute(QUEUE).dead()).isEqualTo(1);
  }

  @Test
  void deadLetterMove_countsDeadOnTheSourceQueueOnly() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    enqueueAndKill(QUEUE);

    assertThat(counts(thisMinute(QUEUE))).containsExactly(1, 0, 1, 1);
    assertThat(counts(thisMinute(DLQ))).containsExactly(0, 0, 0, 0);
  }

  @Test
  void throughput_countsGoToTheMinuteOfTheStoreClock() {
    createQueue(QUEUE);
    Instant first = now();
    enqueue(QUEUE);
    advance(MINUTE);
    enqueueMany(QUEUE, 2);
    advance(MINUTE.multipliedBy(2));
    enqueueMany(QUEUE, 3);

    List<ThroughputPoint> points = redrive.throughput(QUEUE, Duration.ofMinutes(5));

    assertThat(points).extracting(ThroughputPoint::enqueued).containsExactly(0L, 1L, 2L, 0L, 3L);
    assertThat(points.get(1).minute()).isEqualTo(first.truncatedTo(MINUTE_UNIT));
    for (int i = 1; i < points.size(); i++) {
      assertThat(points.get(i).minute()).isEqualTo(points.get(i - 1).minute().plus(MINUTE));
    }
  }

  @Test
  void throughput_nothingRecorded_oneZeroPointPerMinuteWithoutDepth() {
    createQueue(QUEUE);

    List<ThroughputPoint> points = redrive.throughput(QUEUE, Duration.ofMinutes(60));

    assertThat(points).hasSize(60);
    assertThat(points).allSatisfy(p -> assertThat(counts(p)).containsExactly(0, 0, 0, 0));
    assertThat(points).allSatisfy(p -> assertThat(p.depth()).isNull());
    assertThat(points.get(59).minute()).isEqualTo(now().truncatedTo(MINUTE_UNIT));
  }

  @Test
  void throughput_allQueues_sumsEveryQueue_andAListSumsThoseNamed() {
    createQueue(QUEUE);
    createQueue(OTHER);
    createQueue("third");
    enqueueMany(QUEUE, 2);
    enqueueMany(OTHER, 3);
    enqueue("third");
    redrive.recordDepth();

    ThroughputPoint all = thisMinute(null);
    assertThat(all.enqueued()).isEqualTo(6);
    assertThat(all.depth()).isEqualTo(new ThroughputPoint.Depth(6, 0, 0, 0));
    List<ThroughputPoint> two = redrive.throughputOf(List.of(QUEUE, OTHER, "missing"), MINUTE);
    assertThat(two.get(0).enqueued()).isEqualTo(5);
    assertThat(two.get(0).depth()).isEqualTo(new ThroughputPoint.Depth(5, 0, 0, 0));
  }

  @Test
  void recordDepth_countsEachState() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 2); // ready
    enqueue(newMessage(QUEUE).delay(Duration.ofHours(1)).build()); // scheduled
    enqueue(QUEUE);
    enqueue(QUEUE);
    List<LeasedMessage> leased = lease(QUEUE, 4, LONG_LEASE).leased();
    failPermanently(leased.get(0)); // dead; two of the others stay leased
    complete(leased.get(1));

    assertThat(redrive.recordDepth()).isEqualTo(1);

    assertThat(thisMinute(QUEUE).depth()).isEqualTo(new ThroughputPoint.Depth(0, 1, 2, 1));
  }

  @Test
  void recordDepth_twiceInAMinuteOnTwoNodes_firstWriterWins() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 2);
    Redrive otherNode = Redrive.builder(db.openStore()).clock(clock).build();

    assertThat(redrive.recordDepth()).isEqualTo(1);
    enqueue(QUEUE);
    assertThat(otherNode.recordDepth()).isZero();
    assertThat(redrive.recordDepth()).isZero();
    assertThat(thisMinute(QUEUE).depth().ready()).isEqualTo(2);

    advance(MINUTE);
    assertThat(otherNode.recordDepth()).isEqualTo(1);
    assertThat(thisMinute(QUEUE).depth().ready()).isEqualTo(3);
  }

  @Test
  void forgetThroughput_deletesCountersAndSnapshotsOlderThanRetention() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    redrive.recordDepth();
    advance(Duration.ofMinutes(90));
    enqueue(QUEUE);
    redrive.recordDepth();

    assertThat(redrive.forgetThroughput(Duration.ofHours(2))).isZero();
    assertThat(redrive.forgetThroughput(Duration.ofHours(1))).isEqualTo(2);

    List<ThroughputPoint> points = redrive.throughput(QUEUE, Duration.ofHours(2));
    assertThat(points.stream().mapToLong(ThroughputPoint::enqueued).sum()).isEqualTo(1);
    assertThat(points.stream().filter(p -> p.depth() != null)).hasSize(1);
  }

  @Test
  void deleteQueue_forgetsItsThroughput() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    redrive.deleteQueue(QUEUE);
    createQueue(QUEUE);

    assertThat(counts(thisMinute(QUEUE))).containsExactly(0, 0, 0, 0);
  }

  @Test
  void throughput_badWindowOrQueue_refusedNamingTheProblem() {
    createQueue(QUEUE);

    assertThatThrownBy(() -> redrive.throughput(QUEUE, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("window");
    assertThatThrownBy(() -> redrive.throughput(QUEUE, Duration.ofHours(25)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("window");
    assertThatThrownBy(() -> redrive.throughput(QUEUE, Duration.ofSeconds(90)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole minutes");
    assertThatThrownBy(() -> redrive.throughput("missing", MINUTE))
        .isInstanceOf(QueueNotFoundException.class);
    assertThat(redrive.throughput(QUEUE, Duration.ofHours(24))).hasSize(1440);
  }

  /**
   * Many threads on three nodes settle one queue at once, completing, failing and killing in
   * batches, and enqueueing into two queues per transaction: none deadlocks or fails, and the
   * counters add up to exactly what was done.
   */
  @Test
  @Timeout(120)
  void settle_manyThreadsOnOneQueue_noDeadlockAndExactCounts() throws Exception {
    createQueue(QUEUE);
    createQueue(OTHER);
    int messages = 600;
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < messages; i++) {
      batch.add(newMessage(QUEUE).build());
    }
    redrive.enqueueBatch(batch);
    List<Redrive> nodes =
        List.of(
            redrive,
            Redrive.builder(db.openStore()).clock(clock).build(),
            Redrive.builder(db.openStore()).clock(clock).build());
    AtomicLong completed = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicLong dead = new AtomicLong();
    AtomicLong enqueued = new AtomicLong(messages);
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < 8; w++) {
      Redrive node = nodes.get(w % nodes.size());
      String worker = "worker-" + w;
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                  int round = 0;
                  List<LeasedMessage> leased;
                  while (!(leased =
                          node.lease(new LeaseRequest(QUEUE, worker, 5, LONG_LEASE)).leased())
                      .isEmpty()) {
                    round++;
                    List<String> completes = new ArrayList<>();
                    List<FailRequest> fails = new ArrayList<>();
                    for (LeasedMessage m : leased) {
                      int kind = Math.floorMod(m.id().hashCode(), 4);
                      if (kind == 0) {
                        fails.add(FailRequest.of(m.token(), FailureReason.VALIDATION_FAILURE, "x"));
                        dead.incrementAndGet();
                      } else if (kind == 1 && m.attempt() == 1) {
                        fails.add(FailRequest.of(m.token(), FailureReason.UNKNOWN, "x"));
                      } else {
                        completes.add(m.token());
                      }
                    }
                    if (round % 2 == 0) {
                      // One transaction for both (the completes are then not alone).
                      List<SettleCommand> commands = new ArrayList<>();
                      completes.forEach(
                          k -> commands.add(new SettleCommand.Complete(LeaseToken.parse(k))));
                      fails.forEach(f -> commands.add(SettleCommand.Fail.of(f)));
                      node.settle(commands);
                    } else {
                      if (!completes.isEmpty()) {
                        node.completeAll(completes);
                      }
                      if (!fails.isEmpty()) {
                        node.failAll(fails);
                      }
                    }
                    completed.addAndGet(completes.size());
                    failed.addAndGet(fails.size());
                    if (round % 3 == 0) {
                      node.enqueueBatch(
                          List.of(newMessage(OTHER).build(), newMessage(QUEUE).build()));
                      enqueued.incrementAndGet();
                    }
                  }
                } catch (Throwable e) {
                  errors.add(e);
                }
              },
              worker);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    go.countDown();
    for (Thread t : threads) {
      t.join(110_000);
      assertThat(t.isAlive()).as("%s still running", t.getName()).isFalse();
    }
    assertThat(errors).isEmpty();
    // The other nodes' counts wait in their memory until they write them (at the latest on close).
    nodes.subList(1, nodes.size()).forEach(Redrive::close);
    // Retried failures come back after their backoff: let it pass, then drain what is left.
    List<LeasedMessage> rest;
    advance(Duration.ofHours(2));
    while (!(rest = lease(QUEUE, 100, LONG_LEASE).leased()).isEmpty()) {
      redrive.completeAll(rest.stream().map(LeasedMessage::token).toList());
      completed.addAndGet(rest.size());
    }

    List<ThroughputPoint> points = redrive.throughput(QUEUE, Duration.ofHours(3));
    assertThat(points.stream().mapToLong(ThroughputPoint::enqueued).sum())
        .isEqualTo(enqueued.get());
    assertThat(points.stream().mapToLong(ThroughputPoint::completed).sum())
        .isEqualTo(completed.get());
    assertThat(points.stream().mapToLong(ThroughputPoint::failed).sum()).isEqualTo(failed.get());
    assertThat(points.stream().mapToLong(ThroughputPoint::dead).sum()).isEqualTo(dead.get());
    assertThat(completed.get() + dead.get()).isEqualTo(enqueued.get());
    assertThat(stats(QUEUE).total() - stats(QUEUE).dead()).isZero();
  }
}
