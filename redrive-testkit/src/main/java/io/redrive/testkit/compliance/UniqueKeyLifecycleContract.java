package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.OnDuplicate;
import io.redrive.queue.DeadLetter;
import io.redrive.store.Store;
import io.redrive.testkit.fault.FailureWatchingDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When a unique key is held and when it is free (docs/engine.md, "Unique and debounced messages"):
 * from enqueue to the first lease only; a message back from a lease (retry, release, refund) or
 * from DEAD (manual retry, redrive, dead-letter copy) never holds it; two enqueues racing with one
 * key leave exactly one waiting message, and batches sharing keys in opposite orders never
 * deadlock; the caller's transaction decides too.
 */
public abstract class UniqueKeyLifecycleContract extends ComplianceTestBase {
  private static final String KEY = "report-7";

  private NewMessage.Builder keyed(String queue) {
    return newMessage(queue).uniqueKey(KEY);
  }

  @Test
  void lease_freesTheKey_nextEnqueueIsANewMessage() {
    createQueue(QUEUE);
    String first = enqueue(keyed(QUEUE).build());
    LeasedMessage running = leaseOne(QUEUE);

    EnqueueResult next = redrive.enqueue(keyed(QUEUE).onDuplicate(OnDuplicate.REPLACE).build());

    assertThat(next.created()).isTrue();
    assertThat(next.id()).isNotEqualTo(first);
    assertThat(message(first).uniqueKey()).isNull();
    assertThat(message(first).payload()).isEqualTo(PAYLOAD);
    assertThat(message(next.id()).uniqueKey()).isEqualTo(KEY);
    complete(running);
    assertThat(redrive.enqueue(keyed(QUEUE).build())).isEqualTo(new EnqueueResult(next.id(), true));
  }

  @Test
  void retryAfterFailure_doesNotRetakeTheKey() {
    createQueue(QUEUE);
    String first = enqueue(keyed(QUEUE).build());
    fail(leaseOne(QUEUE));
    assertThat(message(first).state()).isEqualTo(MessageState.SCHEDULED);

    EnqueueResult next = redrive.enqueue(keyed(QUEUE).build());

    assertThat(next.created()).isTrue();
    assertThat(message(first).uniqueKey()).isNull();
    assertThat(stats(QUEUE).total()).isEqualTo(2);
  }

  @Test
  void releasedWithAttemptRefunded_isNoLongerWaiting() {
    createQueue(QUEUE);
    String first = enqueue(keyed(QUEUE).build());
    redrive.release(List.of(leaseOne(QUEUE).token()));
    Message released = message(first);
    assertThat(released.attempts()).isZero();
    assertThat(released.uniqueKey()).isNull();

    EnqueueResult next = redrive.enqueue(keyed(QUEUE).build());

    assertThat(next.created()).isTrue();
    assertThat(next.id()).isNotEqualTo(first);
  }

  @Test
  void manualRetryOfDeadMessage_doesNotRetakeTheKey() {
    createQueue(QUEUE);
    String first = enqueue(keyed(QUEUE).build());
    failPermanently(leaseOne(QUEUE));
    assertThat(message(first).uniqueKey()).isNull();

    Message retried = redrive.retry(first);

    assertThat(retried.attempts()).isZero();
    assertThat(retried.uniqueKey()).isNull();
    EnqueueResult next = redrive.enqueue(keyed(QUEUE).build());
    assertThat(next.created()).isTrue();
    assertThat(next.id()).isNotEqualTo(first);
  }

  @Test
  void expiredWhileWaiting_deadInPlace_holdsNoKey() {
    createQueue(QUEUE, defaults().withExpireAfter(Duration.ofMinutes(1)));
    String first = enqueue(keyed(QUEUE).build());
    advance(Duration.ofMinutes(2));
    redrive.expireDue();
    assertThat(message(first).state()).isEqualTo(MessageState.DEAD);
    assertThat(message(first).uniqueKey()).isNull();

    EnqueueResult next = redrive.enqueue(keyed(QUEUE).build());

    assertThat(next.created()).isTrue();
    assertThat(message(first).state()).isEqualTo(MessageState.DEAD);
  }

  @Test
  void deadLetterMoveAndRedrive_copyHoldsNoKey_redrivenMessageDoesNotRetakeIt() {
    createQueue(DLQ);
    createQueue(
        QUEUE,
        defaults().withExpireAfter(Duration.ofMinutes(1)).withDeadLetter(DeadLetter.moveTo(DLQ)));
    enqueue(keyed(QUEUE).build());
    advance(Duration.ofMinutes(2));
    redrive.expireDue();
    Message copy = messagesIn(DLQ).get(0);
    assertThat(copy.uniqueKey()).isNull();

    EnqueueResult waiting = redrive.enqueue(keyed(QUEUE).build());
    redrive.redrive(RedriveRequest.all(DLQ));

    assertThat(message(copy.id()).queue()).isEqualTo(QUEUE);
    assertThat(message(copy.id()).uniqueKey()).isNull();
    assertThat(message(waiting.id()).uniqueKey()).isEqualTo(KEY);
    assertThat(redrive.enqueue(keyed(QUEUE).build()))
        .isEqualTo(new EnqueueResult(waiting.id(), true));
  }

  @Test
  void callerTransaction_keyDecidedInIt_rollbackLeavesNothing() throws SQLException {
    createQueue(QUEUE);
    String id;
    try (Connection tx = db.connect()) {
      tx.setAutoCommit(false);
      id = redrive.enqueue(tx, keyed(QUEUE).payload("{\"n\":1}").build()).id();
      EnqueueResult again =
          redrive.enqueue(
              tx, keyed(QUEUE).payload("{\"n\":2}").onDuplicate(OnDuplicate.REPLACE).build());
      assertThat(again).isEqualTo(EnqueueResult.replacedBy(id));
      tx.commit();
    }
    assertThat(message(id).payload()).isEqualTo("{\"n\":2}");

    try (Connection tx = db.connect()) {
      tx.setAutoCommit(false);
      redrive.enqueue(
          tx, keyed(QUEUE).payload("{\"n\":3}").onDuplicate(OnDuplicate.REPLACE).build());
      tx.rollback();
    }
    assertThat(message(id).payload()).isEqualTo("{\"n\":2}");
    assertThat(stats(QUEUE).total()).isEqualTo(1);
  }

  @Test
  @Timeout(120)
  void race_enqueuesWithOneKeyOnThreeNodes_leaveExactlyOneWaitingMessage() throws Exception {
    createQueue(QUEUE);
    List<Store> stores = List.of(db.openStore(), db.openStore());
    try {
      List<Redrive> nodes = new ArrayList<>();
      nodes.add(redrive);
      stores.forEach(s -> nodes.add(Redrive.builder(s).clock(clock).build()));
      for (OnDuplicate mode : OnDuplicate.values()) {
        for (int round = 0; round < 5; round++) {
          String key = mode + "-" + round;
          List<EnqueueResult> results = race(nodes, key, mode);
          List<String> created =
              results.stream().filter(EnqueueResult::created).map(EnqueueResult::id).toList();
          assertThat(created).as("created for %s", key).hasSize(1);
          assertThat(results).extracting(EnqueueResult::id).containsOnly(created.get(0));
          assertThat(results)
              .filteredOn(r -> !r.created())
              .allMatch(r -> mode == OnDuplicate.KEEP ? r.duplicate() : r.replaced());
          assertThat(message(created.get(0)).uniqueKey()).isEqualTo(key);
        }
      }
      assertThat(stats(QUEUE).total()).isEqualTo(10);
      // Leased and racing again: the running message is left alone, one new message waits.
      List<String> running = ids(lease(QUEUE, 10));
      List<EnqueueResult> after = race(nodes, "KEEP-0", OnDuplicate.REPLACE);
      assertThat(after.stream().filter(EnqueueResult::created).count()).isEqualTo(1);
      assertThat(Set.copyOf(running)).doesNotContain(after.get(0).id());
      assertThat(stats(QUEUE).total()).isEqualTo(11);
    } finally {
      stores.forEach(Store::close);
    }
  }

  /**
   * Two nodes enqueue batches of the same 50 unique keys in opposite orders at once, round after
   * round: no deadlock is ever reported by the database (not even one the store would retry), and
   * each key ends with exactly one waiting message that both answers name.
   */
  @Test
  @Timeout(180)
  void race_batchesOfTheSameKeysInOppositeOrders_neverDeadlock_oneMessagePerKey() throws Exception {
    createQueue(QUEUE);
    ConcurrentLinkedQueue<String> states = new ConcurrentLinkedQueue<>();
    List<Store> stores =
        List.of(
            db.openStore(ds -> new FailureWatchingDataSource(ds, states::add)),
            db.openStore(ds -> new FailureWatchingDataSource(ds, states::add)));
    int keys = 50;
    int rounds = 20;
    try {
      List<Redrive> nodes =
          stores.stream().map(s -> Redrive.builder(s).clock(clock).build()).toList();
      for (int round = 0; round < rounds; round++) {
        List<NewMessage> forward = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
          forward.add(newMessage(QUEUE).uniqueKey("r" + round + "-k" + k).build());
        }
        List<NewMessage> backward = new ArrayList<>(forward);
        java.util.Collections.reverse(backward);
        CyclicBarrier start = new CyclicBarrier(2);
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<List<EnqueueResult>> answers = new ArrayList<>(List.of(List.of(), List.of()));
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          int side = t;
          List<NewMessage> batch = side == 0 ? forward : backward;
          Thread thread =
              new Thread(
                  () -> {
                    try {
                      start.await();
                      List<EnqueueResult> r = nodes.get(side).enqueueBatch(batch);
                      synchronized (answers) {
                        answers.set(side, r);
                      }
                    } catch (Throwable e) {
                      errors.add(e);
                    }
                  },
                  "batch-" + t);
          thread.setDaemon(true);
          thread.start();
          threads.add(thread);
        }
        for (Thread thread : threads) {
          thread.join(60_000);
        }
        assertThat(errors).as("round %d", round).isEmpty();
        List<EnqueueResult> a = answers.get(0);
        List<EnqueueResult> b = new ArrayList<>(answers.get(1));
        java.util.Collections.reverse(b); // in key order, as a's
        assertThat(a).hasSize(keys);
        assertThat(b).hasSize(keys);
        for (int k = 0; k < keys; k++) {
          assertThat(a.get(k).id()).as("round %d key %d", round, k).isEqualTo(b.get(k).id());
          assertThat(a.get(k).created() ^ b.get(k).created()).as("one created").isTrue();
        }
      }
      assertThat(states).as("SQLStates the database reported").doesNotContain("40P01");
      assertThat(stats(QUEUE).total()).isEqualTo(keys * rounds);
    } finally {
      stores.forEach(Store::close);
    }
  }

  /** Eight threads on the nodes enqueue with {@code key} at once; their answers. */
  private List<EnqueueResult> race(List<Redrive> nodes, String key, OnDuplicate mode)
      throws Exception {
    int threads = 8;
    CyclicBarrier start = new CyclicBarrier(threads);
    ConcurrentLinkedQueue<EnqueueResult> results = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Redrive node = nodes.get(t % nodes.size());
      String payload = "{\"t\":" + t + "}";
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  results.add(
                      node.enqueue(
                          newMessage(QUEUE)
                              .payload(payload)
                              .uniqueKey(key)
                              .onDuplicate(mode)
                              .build()));
                } catch (Throwable e) {
                  errors.add(e);
                }
              },
              "enqueue-" + t);
      thread.setDaemon(true);
      thread.start();
      started.add(thread);
    }
    for (Thread thread : started) {
      thread.join(60_000);
    }
    assertThat(errors).isEmpty();
    assertThat(results).hasSize(threads);
    return List.copyOf(results);
  }
}
