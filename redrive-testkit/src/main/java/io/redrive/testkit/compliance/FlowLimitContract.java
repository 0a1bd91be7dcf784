package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.FlowStatus;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueUpdate;
import io.redrive.queue.Rate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Flow limits of a queue ({@code QueuePolicy.limits}): caps on running messages in all and per
 * limit key (1: a singleton per key), rates of leasing in all and per key, and the slow-down that
 * holds a key. A message a limit holds back is simply not leased: it keeps its attempts, and other
 * keys' messages are leased past it. Running means leased with a lease that has not run out.
 */
public abstract class FlowLimitContract extends ComplianceTestBase {
  private final Map<String, String> keyOf = new HashMap<>();

  private QueuePolicy limited(FlowLimits limits) {
    return defaults().withLimits(limits);
  }

  private List<String> enqueueKeyed(String key, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String id = enqueue(newMessage(QUEUE).limitKey(key).build());
      keyOf.put(id, key);
      ids.add(id);
    }
    return ids;
  }

  private Map<String, Integer> perKey(LeaseResult result) {
    Map<String, Integer> out = new HashMap<>();
    for (LeasedMessage m : result.leased()) {
      out.merge(String.valueOf(keyOf.get(m.id())), 1, Integer::sum);
    }
    return out;
  }

  private Settlement slowDown(LeasedMessage m, Duration d) {
    return redrive
        .settle(List.of(SettleCommand.Abandon.slowDown(LeaseToken.parse(m.token()), d)))
        .get(0);
  }

  @Test
  void limitKey_isStoredAndShown() {
    createQueue(QUEUE, limited(FlowLimits.singleton()));
    String id = enqueueKeyed("tenant-1", 1).get(0);
    assertThat(message(id).limitKey()).isEqualTo("tenant-1");
  }

  @Test
  void perKeyCap_keyAtItsCap_doesNotHideOtherKeys() {
    createQueue(QUEUE, limited(new FlowLimits(null, 2, null, null)));
    enqueueKeyed("big", 30);
    List<String> small = enqueueKeyed("small", 2);

    LeaseResult first = lease(QUEUE, 10);

    assertThat(perKey(first)).containsEntry("big", 2).containsEntry("small", 2).hasSize(2);
    assertThat(ids(first)).containsAll(small);
    assertNothingLeasable(QUEUE);
    complete(first.leased().get(0));
    assertThat(perKey(lease(QUEUE, 10))).containsEntry("big", 1).hasSize(1);
  }

  @Test
  void queueCap_countsMessagesWithAndWithoutKeys() {
    createQueue(QUEUE, limited(new FlowLimits(3, null, null, null)));
    enqueueKeyed("a", 2);
    enqueueMany(QUEUE, 3);

    LeaseResult first = lease(QUEUE, 10);
    assertThat(first.leased()).hasSize(3);
    assertNothingLeasable(QUEUE);
    complete(first.leased().get(1));
    assertThat(lease(QUEUE, 10).leased()).hasSize(1);
  }

  @Test
  void keylessMessage_leasedUnderALimit_stillHasNoKey_andCountsAfterItsRetry() {
    createQueue(QUEUE, limited(new FlowLimits(1, null, null, null)));
    String id = enqueue(newMessage(QUEUE).build());
    String other = enqueueMany(QUEUE, 1).get(0);

    LeasedMessage first = leaseOne(QUEUE);
    assertThat(first.id()).isEqualTo(id);
    assertThat(message(id).limitKey()).isNull();
    assertNothingLeasable(QUEUE);
    failRetryAfter(first, MILLI);
    advance(MILLI);

    LeasedMessage second = leaseOne(QUEUE);
    assertThat(second.id()).isEqualTo(other);
    assertNothingLeasable(QUEUE); // the retried message waits for the one slot
    complete(second);

    LeasedMessage again = leaseOne(QUEUE);
    assertThat(again.id()).isEqualTo(id);
    assertThat(message(id).limitKey()).isNull();
    assertNothingLeasable(QUEUE);
  }

  @Test
  void expiredLease_freesItsSlot() {
    createQueue(QUEUE, limited(FlowLimits.singleton()));
    List<String> ids = enqueueKeyed("k", 2);
    LeasedMessage held = leaseOne(QUEUE, Duration.ofSeconds(10));
    assertThat(held.id()).isEqualTo(ids.get(0));
    assertNothingLeasable(QUEUE);

    advance(Duration.ofSeconds(10));

    LeasedMessage next = leaseOne(QUEUE);
    assertThat(next.id()).isEqualTo(ids.get(1));
    assertNothingLeasable(QUEUE);
  }

  @Test
  void singleton_oneRunningPerKey_theNextWaitsInOrder() {
    createQueue(QUEUE, limited(FlowLimits.singleton()));
    List<String> a = enqueueKeyed("a", 3);
    List<String> b = enqueueKeyed("b", 1);

    LeaseResult first = lease(QUEUE, 10);
    assertThat(ids(first)).containsExactly(a.get(0), b.get(0));
    complete(first.leased().get(0));
    assertThat(ids(lease(QUEUE, 10))).containsExactly(a.get(1));
    assertThat(message(a.get(2)).attempts()).isZero();
  }

  @Test
  void ratePerQueue_tokensRefillWithTime_waitingMessagesKeepTheirAttempts() {
    createQueue(
        QUEUE, limited(new FlowLimits(null, null, Rate.of(2, Duration.ofMinutes(1)), null)));
    List<String> ids = enqueueMany(QUEUE, 5);

    assertThat(lease(QUEUE, 10, LONG_LEASE).leased()).hasSize(2);
    assertNothingLeasable(QUEUE);
    for (String id : ids.subList(2, 5)) {
      Message m = message(id);
      assertThat(m.attempts()).isZero();
      assertThat(m.state()).isEqualTo(MessageState.READY);
    }
    advance(Duration.ofSeconds(30));
    assertThat(ids(lease(QUEUE, 10, LONG_LEASE))).containsExactly(ids.get(2));
    advance(Duration.ofSeconds(29));
    assertNothingLeasable(QUEUE);
    advance(Duration.ofSeconds(1));
    assertThat(ids(lease(QUEUE, 10, LONG_LEASE))).containsExactly(ids.get(3));
    advance(Duration.ofMinutes(5)); // a full bucket holds no more than its rate's leases
    LeaseResult last = lease(QUEUE, 10, LONG_LEASE);
    assertThat(ids(last)).containsExactly(ids.get(4));
  }

  @Test
  void ratePerKey_eachKeyHasItsOwnBucket() {
    createQueue(
        QUEUE, limited(new FlowLimits(null, null, null, Rate.of(1, Duration.ofSeconds(10)))));
    enqueueKeyed("a", 3);
    enqueueKeyed("b", 3);
    enqueueMany(QUEUE, 1);

    LeaseResult first = lease(QUEUE, 10);
    assertThat(perKey(first)).containsEntry("a", 1).containsEntry("b", 1).containsEntry("null", 1);
    assertNothingLeasable(QUEUE);
    advance(Duration.ofSeconds(10));
    assertThat(perKey(lease(QUEUE, 10))).containsEntry("a", 1).containsEntry("b", 1).hasSize(2);
  }

  @Test
  void slowDown_holdsTheKey_refundsTheAttempt_andShowsInTheHistory() {
    createQueue(QUEUE); // no limits: the hold alone sends the queue down the limited path
    List<String> a = enqueueKeyed("a", 2);
    List<String> b = enqueueKeyed("b", 1);
    LeasedMessage first = leaseOne(QUEUE);
    assertThat(first.id()).isEqualTo(a.get(0));

    Settlement s = slowDown(first, Duration.ofSeconds(30));

    assertThat(s.settled()).isTrue();
    Message m = message(a.get(0));
    assertThat(m.attempts()).isZero();
    assertThat(m.visibleAt()).isEqualTo(now().plusSeconds(30));
    HistoryEntry last = m.history().get(m.history().size() - 1);
    assertThat(last.outcome()).isEqualTo(Outcome.ABANDONED);
    assertThat(last.note()).startsWith("slowed down: held key a for 30s");
    LeaseResult others = lease(QUEUE, 10);
    assertThat(ids(others)).containsExactly(b.get(0));
    complete(others.leased().get(0));
    advance(Duration.ofSeconds(29));
    assertNothingLeasable(QUEUE);
    advance(Duration.ofSeconds(1));
    // In serve order: the slowed-down message is visible again only now.
    assertThat(ids(lease(QUEUE, 10))).containsExactly(a.get(1), a.get(0));
  }

  @Test
  void slowDown_withoutKey_holdsTheWholeQueue() {
    createQueue(QUEUE, limited(new FlowLimits(100, null, null, null)));
    enqueueMany(QUEUE, 2);
    enqueueKeyed("a", 1);
    slowDown(leaseOne(QUEUE), Duration.ofSeconds(10));

    assertNothingLeasable(QUEUE);
    advance(Duration.ofSeconds(10));
    assertThat(lease(QUEUE, 10).leased()).hasSize(3);
  }

  @Test
  void flowStatus_countsRunningKeysAtTheirCapAndHeldKeys() {
    createQueue(QUEUE, limited(new FlowLimits(null, 1, null, null)));
    enqueueKeyed("a", 2);
    enqueueKeyed("b", 1);
    enqueueKeyed("c", 1);
    LeaseResult leased = lease(QUEUE, 10, LONG_LEASE);
    assertThat(leased.leased()).hasSize(3);
    LeasedMessage c =
        leased.leased().stream().filter(m -> "c".equals(keyOf.get(m.id()))).findFirst().get();
    slowDown(c, Duration.ofSeconds(10));

    FlowStatus status = redrive.flowStatus(QUEUE);

    assertThat(status).isEqualTo(new FlowStatus(2, 2, 1, null));
    advance(Duration.ofSeconds(10));
    assertThat(redrive.flowStatus(QUEUE).keysHeld()).isZero();
  }

  @Test
  void limits_updatesMerge_andClearing_restoresTheUnlimitedLease() {
    createQueue(QUEUE, limited(new FlowLimits(5, null, null, null)));
    redrive.updateQueue(
        QUEUE,
        QueueUpdate.builder()
            .limits(new FlowLimits(null, 1, null, Rate.of(10, Duration.ofSeconds(1))))
            .build());
    FlowLimits merged = redrive.getQueue(QUEUE).policy().limits();
    assertThat(merged).isEqualTo(new FlowLimits(5, 1, null, Rate.of(10, Duration.ofSeconds(1))));

    redrive.updateQueue(QUEUE, QueueUpdate.builder().clearLimits().build());

    assertThat(redrive.getQueue(QUEUE).policy().limits()).isEqualTo(FlowLimits.NONE);
    enqueueKeyed("a", 3);
    assertThat(lease(QUEUE, 10).leased()).hasSize(3);
  }

  @Test
  void limits_setAndClearedBetweenLeases_takeEffectOnTheNextLease() {
    createQueue(QUEUE, defaults());
    enqueueKeyed("a", 6);
    assertThat(lease(QUEUE, 1).leased()).hasSize(1); // unlimited: the ordinary lease

    redrive.updateQueue(
        QUEUE, QueueUpdate.builder().limits(new FlowLimits(2, null, null, null)).build());
    assertThat(lease(QUEUE, 10).leased()).hasSize(1); // the earlier lease counts: 2 in all
    assertNothingLeasable(QUEUE);

    redrive.updateQueue(QUEUE, QueueUpdate.builder().clearLimits().build());
    assertThat(lease(QUEUE, 10).leased()).hasSize(4);
  }

  @Test
  void limits_badValues_areRejectedNamingTheOption() {
    assertThatThrownBy(() -> new FlowLimits(0, null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("maxRunning: must be between 1 and 100000");
    assertThatThrownBy(() -> new FlowLimits(null, -1, null, null))
        .hasMessageStartingWith("maxRunningPerKey: ");
    assertThatThrownBy(() -> Rate.parse("rate", "ten/1s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rate: must be leases/period such as \"100/1m\", was \"ten/1s\"");
    assertThatThrownBy(() -> Rate.parse("ratePerKey", "0/1s"))
        .hasMessageStartingWith("ratePerKey: rate: leases per period must be between 1");
    assertThat(Rate.parse("rate", "100/1m")).isEqualTo(Rate.of(100, Duration.ofMinutes(1)));
    assertThat(Rate.of(10, Duration.ofSeconds(1))).hasToString("10/1s");
    assertThatThrownBy(() -> redrive.enqueue(newMessage(QUEUE).limitKey(" ").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limitKey: must not be blank");
  }

  @Test
  @Timeout(60)
  void caps_neverExceeded_byThreadsOnThreeNodes_andEveryKeyFinishes() throws Exception {
    int keys = 20;
    int perKey = 5;
    createQueue(QUEUE, limited(new FlowLimits(6, 2, null, null)));
    Map<String, String> keyById = new ConcurrentHashMap<>();
    List<NewMessage> batch = new ArrayList<>();
    for (int k = 0; k < keys; k++) { // key by key: a key's messages press against its cap
      for (int m = 0; m < perKey; m++) {
        batch.add(newMessage(QUEUE).limitKey("key-" + k).build());
      }
    }
    List<io.redrive.message.EnqueueResult> enqueued = redrive.enqueueBatch(batch);
    for (int i = 0; i < batch.size(); i++) {
      keyById.put(enqueued.get(i).id(), batch.get(i).limitKey());
    }
    List<Redrive> nodes = new ArrayList<>(List.of(redrive));
    for (int n = 1; n < 3; n++) {
      nodes.add(Redrive.builder(db.openStore()).clock(clock).build());
    }
    Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> done = new ConcurrentHashMap<>();
    AtomicInteger total = new AtomicInteger();
    AtomicInteger maxPerKey = new AtomicInteger();
    AtomicInteger maxTotal = new AtomicInteger();
    AtomicInteger completed = new AtomicInteger();
    List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 9; t++) {
      Redrive node = nodes.get(t % nodes.size());
      String worker = "w" + t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  while (completed.get() < keys * perKey) {
                    LeaseResult r = node.lease(new LeaseRequest(QUEUE, worker, 2, LONG_LEASE));
                    for (LeasedMessage m : r.leased()) {
                      String key = keyById.get(m.id());
                      int mine =
                          running.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                      maxPerKey.accumulateAndGet(mine, Math::max);
                      maxTotal.accumulateAndGet(total.incrementAndGet(), Math::max);
                    }
                    Thread.yield();
                    for (LeasedMessage m : r.leased()) {
                      String key = keyById.get(m.id());
                      running.get(key).decrementAndGet();
                      total.decrementAndGet();
                      node.complete(m.token());
                      done.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                      completed.incrementAndGet();
                    }
                  }
                } catch (Throwable e) {
                  errors.add(e);
                  completed.set(Integer.MAX_VALUE);
                }
              },
              worker);
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(errors).isEmpty();
    assertThat(maxPerKey.get()).as("most running of one key").isBetween(1, 2);
    assertThat(maxTotal.get()).as("most running in the queue").isBetween(1, 6);
    assertThat(done).hasSize(keys);
    assertThat(done.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(perKey));
  }
}
