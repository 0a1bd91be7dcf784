package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.Redrive;
import io.redrive.engine.DeliveryRules;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueueUpdate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The crash-loop breaker of a queue ({@code QueuePolicy.maxCrashes}): the lease expiry that shows a
 * message's lease ran out on {@code maxCrashes} distinct workers (since its attempts were last
 * reset) dead-letters it as POISON at once, with its own display text and the workers named,
 * whatever attempts are left; {@code maxCrashes = 0} keeps the old behaviour, and one worker that
 * crashes again and again counts once.
 */
public abstract class CrashLoopContract extends ComplianceTestBase {
  private static final Duration LEASE = Duration.ofSeconds(10);

  /** A lease of one message by {@code worker} with a 10 s lease. */
  private LeaseResult leaseAs(String worker) {
    return redrive.lease(new LeaseRequest(QUEUE, worker, 1, LEASE));
  }

  /** {@code worker} leases the message and vanishes: its lease runs out. */
  private LeasedMessage crash(String worker) {
    LeaseResult result = leaseAs(worker);
    assertThat(result.leased()).as("leased by %s", worker).hasSize(1);
    advance(LEASE);
    return result.leased().get(0);
  }

  @Test
  void leaseExpiry_onMaxCrashesDistinctWorkers_poisonsAtOnceWithItsStory() {
    createQueue(QUEUE, defaults().withMaxAttempts(5).withMaxCrashes(2));
    String id = enqueue(newMessage(QUEUE).headers(headers()).build());
    crash("node-a");
    crash("node-b");

    LeaseResult result = leaseAs("node-c");

    assertThat(result.leased()).isEmpty();
    assertThat(result.poisoned()).containsExactly(id);
    assertThat(result.crashPoisoned()).containsExactly(id);
    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.DEAD);
    assertThat(m.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(m.deadAt()).isEqualTo(now());
    assertThat(m.attempts()).isEqualTo(2);
    assertThat(m.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(Outcome.LEASE_EXPIRED, Outcome.LEASE_EXPIRED, Outcome.POISONED);
    assertThat(m.history().subList(0, 2))
        .extracting(HistoryEntry::worker)
        .containsExactly("node-a", "node-b");
    FailureRecord failure = m.lastError();
    assertThat(failure.reason()).isEqualTo(FailureReason.POISON);
    assertThat(failure.retryable()).isFalse();
    assertThat(failure.attempt()).isEqualTo(3);
    assertThat(failure.maxAttempts()).isEqualTo(5);
    assertThat(failure.message())
        .isEqualTo(
            "poison: message "
                + id
                + " (type "
                + TYPE
                + ") crashed 2 workers (node-a, node-b) in 3 attempts (max crashes 2)")
        .isEqualTo(DeliveryRules.crashLoopText(id, TYPE, List.of("node-a", "node-b"), 3, 2));
    assertThat(failure.displayText()).isEqualTo(failure.message());
    assertThat(failure.poisonedMessage())
        .contains(id)
        .contains("\"crashedWorkers\":[\"node-a\",\"node-b\"]")
        .contains("\"maxCrashes\":2");
    assertThat(leaseAs("node-c").leased()).isEmpty();
    assertNothingLeasable(QUEUE);
  }

  @Test
  void leaseExpiry_belowMaxCrashes_readyAgainAsBefore() {
    createQueue(QUEUE, defaults().withMaxCrashes(3));
    String id = enqueue(QUEUE);
    crash("node-a");
    crash("node-b");

    LeaseResult result = leaseAs("node-c");

    assertThat(result.poisoned()).isEmpty();
    assertThat(ids(result)).containsExactly(id);
    assertThat(result.leased().get(0).attempt()).isEqualTo(3);
    complete(result.leased().get(0));
  }

  @Test
  void maxCrashesZero_crashesOnDistinctWorkers_spendAttemptsAsBefore() {
    createQueue(QUEUE, defaults().withMaxAttempts(4));
    String id = enqueue(QUEUE);
    crash("node-a");
    crash("node-b");
    crash("node-c");

    LeaseResult fourth = leaseAs("node-d");
    assertThat(fourth.poisoned()).isEmpty();
    assertThat(fourth.leased()).extracting(LeasedMessage::attempt).containsExactly(4);
    advance(LEASE);

    LeaseResult fifth = leaseAs("node-e");
    assertThat(fifth.poisoned()).containsExactly(id);
    assertThat(fifth.crashPoisoned()).isEmpty();
    assertThat(message(id).lastError().message())
        .isEqualTo(DeliveryRules.poisonText(id, TYPE, 5, 4));
  }

  @Test
  void sameWorkerCrashingAgain_countsAsOneWorker() {
    createQueue(QUEUE, defaults().withMaxAttempts(10).withMaxCrashes(2));
    String id = enqueue(QUEUE);
    crash("node-a");
    crash("node-a");
    crash("node-a");

    LeaseResult again = leaseAs("node-a");
    assertThat(again.poisoned()).isEmpty();
    assertThat(again.leased()).extracting(LeasedMessage::attempt).containsExactly(4);
    advance(LEASE);

    LeaseResult afterSecondWorker = leaseAs("node-b");
    assertThat(afterSecondWorker.leased()).hasSize(1);
    advance(LEASE);
    LeaseResult last = leaseAs("node-c");

    assertThat(last.crashPoisoned()).containsExactly(id);
    assertThat(message(id).lastError().message())
        .isEqualTo(DeliveryRules.crashLoopText(id, TYPE, List.of("node-a", "node-b"), 6, 2));
  }

  @Test
  void attemptsPoison_stillAppliesWhenFewerWorkersCrashed() {
    createQueue(QUEUE, defaults().withMaxAttempts(2).withMaxCrashes(3));
    String id = enqueue(QUEUE);
    crash("node-a");
    crash("node-b");

    LeaseResult result = leaseAs("node-c");

    assertThat(result.poisoned()).containsExactly(id);
    assertThat(result.crashPoisoned()).isEmpty();
    assertThat(message(id).lastError().message())
        .isEqualTo(DeliveryRules.poisonText(id, TYPE, 3, 2));
  }

  @Test
  void settledAttemptsBetweenCrashes_doNotCount_onlyLeaseExpiriesDo() {
    createQueue(QUEUE, defaults().withMaxAttempts(10).withMaxCrashes(2));
    String id = enqueue(QUEUE);
    crash("node-a");
    failRetryAfter(single(leaseAs("node-b")), Duration.ZERO);

    LeasedMessage third = single(leaseAs("node-c"));

    assertThat(third.id()).isEqualTo(id);
    assertThat(third.attempt()).isEqualTo(3);
  }

  @Test
  void manualRetry_resetsTheCrashCount() {
    createQueue(QUEUE, defaults().withMaxCrashes(2));
    String id = enqueue(QUEUE);
    crash("node-a");
    crash("node-b");
    assertThat(leaseAs("node-c").crashPoisoned()).containsExactly(id);

    redrive.retry(id);
    crash("node-c");
    LeaseResult afterRetry = leaseAs("node-d");

    assertThat(afterRetry.poisoned()).isEmpty();
    assertThat(afterRetry.leased()).extracting(LeasedMessage::attempt).containsExactly(2);
  }

  @Test
  void crashLoop_withDeadLetterQueue_movesTheCopyWithItsStory() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withMaxCrashes(2).withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueue(QUEUE);
    crash("node-a");
    crash("node-b");

    assertThat(leaseAs("node-c").crashPoisoned()).containsExactly(id);

    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    List<Message> dead = messagesIn(DLQ);
    assertThat(dead).hasSize(1);
    Message copy = message(dead.get(0).id());
    assertThat(copy.sourceId()).isEqualTo(id);
    assertThat(copy.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(copy.lastError().message()).contains("crashed 2 workers (node-a, node-b)");
    assertThat(copy.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(
            Outcome.LEASE_EXPIRED, Outcome.LEASE_EXPIRED, Outcome.POISONED, Outcome.DEAD_LETTERED);
  }

  @Test
  void batchLease_deliversExpiredBelowLimitWithReadyOnes_andPoisonsTheLoop() {
    createQueue(QUEUE, defaults().withMaxCrashes(2));
    String looping = enqueue(QUEUE);
    crash("node-a");
    String once = enqueue(newMessage(QUEUE).payload("{\"n\":1}").build());
    assertThat(ids(leaseAs("node-b"))).containsExactly(looping);
    assertThat(ids(leaseAs("node-c"))).containsExactly(once);
    advance(LEASE);
    List<String> fresh = enqueueMany(QUEUE, 2);

    LeaseResult result = redrive.lease(new LeaseRequest(QUEUE, "node-d", 10, LEASE));

    assertThat(result.crashPoisoned()).containsExactly(looping);
    assertThat(result.poisoned()).containsExactly(looping);
    // Serve order holds within a round; a store may lease ready messages in a first round and
    // expired leases in a second, so only the set is pinned here.
    assertThat(ids(result)).containsExactlyInAnyOrder(once, fresh.get(0), fresh.get(1));
    for (LeasedMessage m : result.leased()) {
      assertThat(m.attempt()).as("attempt of %s", m.id()).isEqualTo(m.id().equals(once) ? 2 : 1);
    }
    for (LeasedMessage m : result.leased()) {
      assertThat(complete(m).state()).isEqualTo(MessageState.COMPLETED);
    }
    assertThat(stats(QUEUE).total()).isEqualTo(1);
  }

  @Test
  void loweredMaxCrashes_appliesAtTheNextLeaseExpiry() {
    createQueue(QUEUE, defaults().withMaxCrashes(5));
    String id = enqueue(QUEUE);
    crash("node-a");
    leaseAs("node-b");

    redrive.updateQueue(QUEUE, QueueUpdate.builder().maxCrashes(2).build());
    advance(LEASE);

    assertThat(leaseAs("node-c").crashPoisoned()).containsExactly(id);
  }

  @Test
  void crashPoison_isCountedByItsMeterAndAsPoisonDeath() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    redrive = Redrive.builder(store).clock(clock).meterRegistry(meters).build();
    createQueue(QUEUE, defaults().withMaxCrashes(2));
    enqueue(QUEUE);
    crash("node-a");
    crash("node-b");

    leaseAs("node-c");

    Counter crashPoisoned =
        meters.find("redrive.messages.crash.poisoned").tags("queue", QUEUE).counter();
    assertThat(crashPoisoned).isNotNull();
    assertThat(crashPoisoned.count()).isEqualTo(1.0);
    assertThat(
            meters
                .find("redrive.messages.dead")
                .tags("queue", QUEUE, "reason", "POISON")
                .counter()
                .count())
        .isEqualTo(1.0);
  }

  @Test
  void maxCrashes_persistsAndMerges() {
    createQueue(QUEUE, defaults().withMaxCrashes(3));
    assertThat(redrive.getQueue(QUEUE).policy().maxCrashes()).isEqualTo(3);

    redrive.updateQueue(QUEUE, QueueUpdate.builder().maxAttempts(7).build());
    assertThat(redrive.getQueue(QUEUE).policy().maxCrashes()).isEqualTo(3);

    redrive.updateQueue(QUEUE, QueueUpdate.builder().maxCrashes(0).build());
    assertThat(redrive.getQueue(QUEUE).policy().maxCrashes()).isZero();
    assertThat(redrive.getQueue(QUEUE).policy().maxAttempts()).isEqualTo(7);
    createQueue(OTHER);
    assertThat(redrive.getQueue(OTHER).policy().maxCrashes()).isZero();
  }

  @Test
  void negativeMaxCrashes_refusedNamingTheField_changesNothing() {
    createQueue(QUEUE, defaults().withMaxCrashes(2));

    assertThatThrownBy(() -> defaults().withMaxCrashes(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxCrashes")
        .hasMessageContaining("-1");
    assertThatThrownBy(
            () -> redrive.updateQueue(QUEUE, QueueUpdate.builder().maxCrashes(-1).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxCrashes");

    assertThat(redrive.getQueue(QUEUE).policy().maxCrashes()).isEqualTo(2);
  }

  private static LeasedMessage single(LeaseResult result) {
    assertThat(result.leased()).hasSize(1);
    return result.leased().get(0);
  }
}
