package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.error.CommitUnknownException;
import io.redrive.error.StoreException;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.maintenance.Maintenance;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.LeaseParams;
import io.redrive.store.ReleaseUndeliveredParams;
import io.redrive.store.Store;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A lease whose answer was lost: the store gives back what the lease batch still holds ({@code
 * releaseUndelivered}: READY at once, attempt refunded, a LEASE_UNDELIVERED entry, nothing else
 * touched, idempotent), and the engine does so itself when a lease ends in COMMIT_UNKNOWN, at once
 * or, if that fails too, on a later maintenance sweep.
 */
public abstract class UndeliveredLeaseContract extends ComplianceTestBase {
  private static final String BATCH = "batch-1";

  private LeaseResult leaseAs(String queue, int max, String batch) {
    return store.leaseReady(new LeaseParams(queue, WORKER, max, null, now(), batch));
  }

  private LeaseResult leaseAs(String queue, int max, Duration timeout, String batch) {
    return store.leaseReady(new LeaseParams(queue, WORKER, max, timeout, now(), batch));
  }

  private List<String> giveBack(String queue, String batch) {
    return store.releaseUndelivered(new ReleaseUndeliveredParams(queue, batch, now()));
  }

  private static List<String> sorted(List<String> ids) {
    return ids.stream().sorted().toList();
  }

  private void assertGivenBack(String id, int attempt) {
    Message m = message(id);
    assertThat(m.state()).as("state of %s", id).isEqualTo(MessageState.READY);
    assertThat(m.attempts()).as("attempts of %s (refunded)", id).isEqualTo(attempt - 1);
    assertThat(m.leasedBy()).isNull();
    assertThat(m.visibleAt()).isEqualTo(now());
    HistoryEntry entry = last(m);
    assertThat(entry.outcome()).isEqualTo(Outcome.LEASE_UNDELIVERED);
    assertThat(entry.attempt()).isEqualTo(attempt);
    assertThat(entry.worker()).isEqualTo(WORKER);
    assertThat(entry.leasedAt()).isNotNull();
    assertThat(entry.settledAt()).isEqualTo(now());
    assertThat(entry.failure()).isNull();
    assertThat(entry.note())
        .contains("lease answer lost")
        .contains(WORKER)
        .contains("attempt refunded");
  }

  // ---- the store operation ----

  @Test
  void releaseUndelivered_leasedBatch_readyAtOnceWithAttemptRefundedAndHistoryEntry() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 3);
    assertThat(ids(leaseAs(QUEUE, 3, BATCH))).containsExactlyElementsOf(ids);
    advance(Duration.ofSeconds(5));

    List<String> given = giveBack(QUEUE, BATCH);

    assertThat(given).isEqualTo(sorted(ids));
    for (String id : ids) {
      assertGivenBack(id, 1);
      assertThat(outcomes(id)).containsExactly(Outcome.LEASE_UNDELIVERED);
    }
    LeaseResult again = lease(QUEUE, 3);
    assertThat(ids(again)).containsExactlyElementsOf(ids);
    assertThat(again.leased()).allSatisfy(m -> assertThat(m.attempt()).isEqualTo(1));
  }

  @Test
  void releaseUndelivered_calledTwice_secondChangesNothing() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    leaseAs(QUEUE, 1, BATCH);
    assertThat(giveBack(QUEUE, BATCH)).containsExactly(id);
    advance(Duration.ofSeconds(1));

    assertThat(giveBack(QUEUE, BATCH)).isEmpty();

    assertThat(outcomes(id)).containsExactly(Outcome.LEASE_UNDELIVERED);
    assertThat(message(id).attempts()).isZero();
    assertThat(message(id).visibleAt()).isEqualTo(now().minusSeconds(1));
  }

  @Test
  void releaseUndelivered_unknownBatchOrOtherQueue_changesNothing() {
    createQueue(QUEUE);
    createQueue(OTHER);
    String id = enqueue(QUEUE);
    String other = enqueue(OTHER);
    leaseAs(QUEUE, 1, BATCH);
    leaseAs(OTHER, 1, "batch-2");

    assertThat(giveBack(QUEUE, "no-such-batch")).isEmpty();
    assertThat(giveBack(OTHER, BATCH)).isEmpty();
    assertThat(giveBack("no-such-queue", BATCH)).isEmpty();

    assertThat(message(id).state()).isEqualTo(MessageState.LEASED);
    assertThat(message(other).state()).isEqualTo(MessageState.LEASED);
    assertThat(message(id).attempts()).isOne();
    assertThat(outcomes(id)).containsExactly(Outcome.LEASED);
  }

  @Test
  void releaseUndelivered_settledOrReleasedOrLeasedAgain_leftAlone() {
    createQueue(QUEUE, defaults().withLeaseTimeout(Duration.ofMinutes(1)));
    List<String> ids = enqueueMany(QUEUE, 5);
    List<LeasedMessage> leased = leaseAs(QUEUE, 5, BATCH).leased();
    assertThat(leased).extracting(LeasedMessage::id).containsExactlyElementsOf(ids);
    complete(leased.get(0)); // settled: gone
    redrive.renew(leased.get(1).token(), Duration.ofMinutes(5));
    complete(leased.get(1)); // renewed, then settled
    failRetryAfter(leased.get(2), Duration.ofHours(1)); // failed: scheduled again
    redrive.renew(leased.get(3).token(), Duration.ofMinutes(10));
    advance(Duration.ofMinutes(2)); // the fifth lease runs out...
    LeaseResult other = leaseAs(QUEUE, 5, "batch-2"); // ...and another lease takes it
    assertThat(ids(other)).containsExactly(ids.get(4));
    redrive.release(List.of(leased.get(3).token())); // released: ready again
    Message failedBefore = message(ids.get(2));
    Message releasedBefore = message(ids.get(3));
    Message leasedAgainBefore = message(ids.get(4));

    assertThat(giveBack(QUEUE, BATCH)).isEmpty();

    assertThat(message(ids.get(2))).isEqualTo(failedBefore);
    assertThat(message(ids.get(3))).isEqualTo(releasedBefore);
    assertThat(message(ids.get(4))).isEqualTo(leasedAgainBefore);
    assertThat(leasedAgainBefore.state()).isEqualTo(MessageState.LEASED);
    assertThat(leasedAgainBefore.attempts()).isEqualTo(2);
    assertThat(complete(other.leased().get(0)).state()).isEqualTo(MessageState.COMPLETED);
    assertThat(messagesIn(QUEUE)).extracting(Message::id).containsExactly(ids.get(2), ids.get(3));
  }

  @Test
  void releaseUndelivered_partlySettledBatch_givesBackOnlyWhatItStillHolds() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 2);
    List<LeasedMessage> leased = leaseAs(QUEUE, 2, BATCH).leased();
    complete(leased.get(0));

    assertThat(giveBack(QUEUE, BATCH)).containsExactly(ids.get(1));

    assertGivenBack(ids.get(1), 1);
    assertThat(messagesIn(QUEUE)).extracting(Message::id).containsExactly(ids.get(1));
  }

  @Test
  void releaseUndelivered_leaseRanOutButNotLeasedAgain_givenBackWithoutLeaseExpired() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    leaseAs(QUEUE, 1, Duration.ofMinutes(1), BATCH);
    advance(Duration.ofMinutes(3));

    assertThat(giveBack(QUEUE, BATCH)).containsExactly(id);

    assertGivenBack(id, 1);
    LeasedMessage next = leaseOne(QUEUE);
    assertThat(next.attempt()).isEqualTo(1);
    assertThat(outcomes(id)).containsExactly(Outcome.LEASE_UNDELIVERED, Outcome.LEASED);
  }

  @Test
  void releaseUndelivered_retriedAttempt_refundsOnlyTheUndeliveredOne() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    fail(leaseOne(QUEUE));
    advance(Duration.ofHours(1));
    leaseAs(QUEUE, 1, BATCH);
    assertThat(message(id).attempts()).isEqualTo(2);

    assertThat(giveBack(QUEUE, BATCH)).containsExactly(id);

    assertGivenBack(id, 2);
    assertThat(outcomes(id)).containsExactly(Outcome.FAILED, Outcome.LEASE_UNDELIVERED);
    assertThat(leaseOne(QUEUE).attempt()).isEqualTo(2);
  }

  @Test
  void releaseUndelivered_pastItsDeadline_leftForTheSweep() {
    createQueue(QUEUE);
    String id = enqueue(newMessage(QUEUE).expireAfter(Duration.ofMinutes(1)).build());
    leaseAs(QUEUE, 1, BATCH);
    advance(Duration.ofMinutes(1));

    assertThat(giveBack(QUEUE, BATCH)).isEmpty();

    assertThat(message(id).state()).isEqualTo(MessageState.LEASED);
    assertThat(redrive.expireDue()).isOne();
    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
  }

  @Test
  void releaseUndelivered_streamHead_nextLeaseTakesItAtOnceInOrder() {
    createQueue(QUEUE);
    String first = enqueueInStream(QUEUE, "s");
    String second = enqueueInStream(QUEUE, "s");
    assertThat(ids(leaseAs(QUEUE, 1, BATCH))).containsExactly(first);
    assertNothingLeasable(QUEUE); // the stream waits for its head

    assertThat(giveBack(QUEUE, BATCH)).containsExactly(first);

    LeasedMessage head = leaseOne(QUEUE);
    assertThat(head.id()).isEqualTo(first);
    assertThat(head.attempt()).isEqualTo(1);
    complete(head);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(second);
  }

  @Test
  void releaseUndelivered_wholeStreamInOneBatch_allBackInOrder() {
    createQueue(QUEUE);
    String first = enqueueInStream(QUEUE, "s");
    String second = enqueueInStream(QUEUE, "s");
    assertThat(ids(leaseAs(QUEUE, 2, BATCH))).containsExactly(first, second);

    assertThat(giveBack(QUEUE, BATCH)).isEqualTo(sorted(List.of(first, second)));

    LeaseResult again = lease(QUEUE, 2);
    assertThat(ids(again)).containsExactly(first, second);
    assertThat(again.leased()).allSatisfy(m -> assertThat(m.attempt()).isEqualTo(1));
  }

  @Test
  void releaseUndelivered_racingLeasesOfTheSameRunOutMessages_eachEndsOneWayOnly()
      throws Exception {
    createQueue(QUEUE, defaults().withLeaseTimeout(Duration.ofMinutes(1)));
    List<String> ids = enqueueMany(QUEUE, 40);
    leaseAs(QUEUE, 40, BATCH);
    advance(Duration.ofMinutes(2)); // leasable again, and still held by the batch
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    List<String> given;
    List<String> leasedAgain = new ArrayList<>();
    try {
      Future<List<String>> giving =
          threads.submit(
              () -> {
                start.await();
                return giveBack(QUEUE, BATCH);
              });
      Future<List<String>> leasing =
          threads.submit(
              () -> {
                start.await();
                List<String> out = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                  out.addAll(ids(lease(QUEUE, 5)));
                }
                return out;
              });
      given = giving.get(60, TimeUnit.SECONDS);
      leasedAgain.addAll(leasing.get(60, TimeUnit.SECONDS));
    } finally {
      threads.shutdownNow();
    }

    assertThat(leasedAgain).doesNotHaveDuplicates();
    for (String id : ids) {
      Message m = message(id);
      List<Outcome> outcomes = outcomes(id);
      long undelivered = outcomes.stream().filter(o -> o == Outcome.LEASE_UNDELIVERED).count();
      long ranOut = outcomes.stream().filter(o -> o == Outcome.LEASE_EXPIRED).count();
      assertThat(undelivered + ranOut).as("how the batch's lease of %s ended", id).isOne();
      assertThat(given.contains(id)).as("given back: %s", id).isEqualTo(undelivered == 1);
      if (m.state() == MessageState.LEASED) {
        assertThat(leasedAgain).contains(id);
        assertThat(m.attempts()).as("attempts of %s", id).isEqualTo(1 + ranOut);
      } else {
        assertThat(m.state()).isEqualTo(MessageState.READY);
        assertThat(undelivered).isOne();
        assertThat(m.attempts()).isZero();
      }
    }
  }

  @Test
  void params_missingBatch_refusedNamingIt() {
    assertThatThrownBy(() -> new ReleaseUndeliveredParams(QUEUE, null, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("batch:");
    assertThatThrownBy(() -> new LeaseParams(QUEUE, WORKER, 1, null, now(), " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("batch:");
  }

  // ---- the engine: lease ends in COMMIT_UNKNOWN ----

  /** Counts calls per method; fails the ones a test asks to fail. */
  private final class Faults {
    final AtomicInteger leaseCuts = new AtomicInteger();
    final AtomicInteger giveBackFailures = new AtomicInteger();
    final AtomicInteger giveBacks = new AtomicInteger();
    volatile boolean leaseCommits = true;
    volatile boolean giveBackCommitsThenCut;

    Store store() {
      return (Store)
          Proxy.newProxyInstance(
              Store.class.getClassLoader(),
              new Class<?>[] {Store.class},
              (proxy, method, args) -> {
                String name = method.getName();
                if (name.equals("leaseReady") && leaseCuts.get() > 0) {
                  leaseCuts.decrementAndGet();
                  if (leaseCommits) {
                    invoke(method, args);
                  }
                  throw new CommitUnknownException("lease: connection lost (test)", "08006", null);
                }
                if (name.equals("releaseUndelivered")) {
                  giveBacks.incrementAndGet();
                  if (giveBackFailures.get() > 0) {
                    giveBackFailures.decrementAndGet();
                    throw new StoreException("database unreachable (test)", "08001", true, null);
                  }
                  if (giveBackCommitsThenCut) {
                    giveBackCommitsThenCut = false;
                    invoke(method, args);
                    throw new CommitUnknownException(
                        "give-back: connection lost (test)", "08006", null);
                  }
                }
                return invoke(method, args);
              });
    }

    private Object invoke(java.lang.reflect.Method method, Object[] args) throws Throwable {
      try {
        return method.invoke(store, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }

    Redrive engine() {
      return Redrive.builder(store()).clock(clock).build();
    }
  }

  @Test
  void lease_answerLost_callerGetsCommitUnknown_andMessagesAreGivenBackAtOnce() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 2);
    Faults faults = new Faults();
    Redrive engine = faults.engine();
    faults.leaseCuts.set(1);

    assertThatThrownBy(() -> engine.lease(LeaseRequest.of(QUEUE, WORKER, 2)))
        .isInstanceOf(CommitUnknownException.class)
        .satisfies(e -> assertThat(e.getSuppressed()).isEmpty());

    assertThat(faults.giveBacks.get()).isOne();
    for (String id : ids) {
      assertGivenBack(id, 1);
    }
    LeaseResult again = engine.lease(LeaseRequest.of(QUEUE, WORKER, 2));
    assertThat(ids(again)).containsExactlyElementsOf(ids);
    assertThat(again.leased()).allSatisfy(m -> assertThat(m.attempt()).isEqualTo(1));
    assertThat(engine.releaseUndelivered()).isZero();
    assertThat(faults.giveBacks.get()).as("nothing left to give back").isOne();
  }

  @Test
  void lease_answerLostAndNothingCommitted_changesNothing() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    Faults faults = new Faults();
    Redrive engine = faults.engine();
    faults.leaseCommits = false;
    faults.leaseCuts.set(1);

    assertThatThrownBy(() -> engine.lease(LeaseRequest.of(QUEUE, WORKER, 1)))
        .isInstanceOf(CommitUnknownException.class);

    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.READY);
    assertThat(m.attempts()).isZero();
    assertThat(m.history()).isEmpty();
  }

  @Test
  void lease_answerLostAndGiveBackFails_messagesStayLeased_untilALaterCallGivesThemBack() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 2);
    Faults faults = new Faults();
    Redrive engine = faults.engine();
    faults.leaseCuts.set(1);
    faults.giveBackFailures.set(2);

    assertThatThrownBy(() -> engine.lease(LeaseRequest.of(QUEUE, WORKER, 2)))
        .isInstanceOf(CommitUnknownException.class)
        .satisfies(
            e -> assertThat(e.getSuppressed()).singleElement().isInstanceOf(StoreException.class));
    assertNothingLeasable(QUEUE);
    assertThatThrownBy(engine::releaseUndelivered).isInstanceOf(StoreException.class);
    assertThat(message(ids.get(0)).state()).isEqualTo(MessageState.LEASED);

    assertThat(engine.releaseUndelivered()).isEqualTo(2);

    for (String id : ids) {
      assertGivenBack(id, 1);
    }
    assertThat(engine.releaseUndelivered()).isZero();
    assertThat(faults.giveBacks.get()).isEqualTo(3);
  }

  @Test
  void lease_giveBackItselfAnswerLost_retriedByTheNextCallWithoutEffect() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    Faults faults = new Faults();
    Redrive engine = faults.engine();
    faults.leaseCuts.set(1);
    faults.giveBackCommitsThenCut = true;

    assertThatThrownBy(() -> engine.lease(LeaseRequest.of(QUEUE, WORKER, 1)))
        .isInstanceOf(CommitUnknownException.class);
    assertGivenBack(id, 1);

    assertThat(engine.releaseUndelivered()).isZero();

    assertThat(outcomes(id)).containsExactly(Outcome.LEASE_UNDELIVERED);
    assertThat(faults.giveBacks.get()).isEqualTo(2);
    assertThat(engine.releaseUndelivered()).isZero();
    assertThat(faults.giveBacks.get()).as("forgotten once given back").isEqualTo(2);
  }

  @Test
  void lease_answerLostAndGiveBackFails_maintenanceSweepGivesThemBack() {
    createQueue(QUEUE, QueuePolicy.defaults());
    String id = enqueue(QUEUE);
    Faults faults = new Faults();
    Redrive engine = faults.engine();
    faults.leaseCuts.set(1);
    faults.giveBackFailures.set(1);
    assertThatThrownBy(() -> engine.lease(LeaseRequest.of(QUEUE, WORKER, 1)))
        .isInstanceOf(CommitUnknownException.class);
    assertThat(message(id).state()).isEqualTo(MessageState.LEASED);

    try (Maintenance maintenance =
        Maintenance.builder(engine).interval(Duration.ofMillis(10)).start()) {
      await()
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> message(id).state() == MessageState.READY);
    }

    assertGivenBack(id, 1);
  }
}
