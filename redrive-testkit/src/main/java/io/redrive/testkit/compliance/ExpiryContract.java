package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.engine.DeliveryRules;
import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.CompleteAllResult;
import io.redrive.lease.FailAllResult;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.StreamPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Deadlines ({@code expireAfter}): a message past its deadline dies as EXPIRED, whether ready,
 * scheduled or leased, in a paused queue or one nobody leases from, via {@code expireDue()} (the
 * maintenance sweep) or at lease time, and goes where its queue's dead-letter policy says. A lease
 * whose message is past its deadline is lost, and no lease or renew outlives the deadline. Two
 * sweepers racing never dead-letter a message twice.
 */
public abstract class ExpiryContract extends ComplianceTestBase {
  private static final Duration DEADLINE = Duration.ofMinutes(10);

  @Test
  void expireDue_unleasedPastDeadline_movedToDeadLetterQueueAndLeavesSource() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueue(newMessage(QUEUE).headers(headers()).build());
    Instant expireAt = now().plus(DEADLINE);
    advance(DEADLINE);

    int expired = redrive.expireDue();

    assertThat(expired).isEqualTo(1);
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(stats(QUEUE).total()).isZero();
    List<Message> dead = messagesIn(DLQ);
    assertThat(dead).hasSize(1);
    Message copy = message(dead.get(0).id());
    assertThat(copy.sourceId()).isEqualTo(id);
    assertThat(copy.sourceQueue()).isEqualTo(QUEUE);
    assertThat(copy.deadReason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(copy.state()).isEqualTo(MessageState.DEAD);
    assertThat(copy.attempts()).isZero();
    assertThat(copy.headers()).isEqualTo(headers());
    assertThat(copy.lastError().reason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(copy.lastError().message()).isEqualTo(DeliveryRules.expiredText(id, TYPE, expireAt));
    assertThat(last(copy).outcome()).isEqualTo(Outcome.DEAD_LETTERED);
  }

  @Test
  void expireDue_oneMilliBeforeDeadline_expiresNothing() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    advance(DEADLINE.minus(MILLI));

    assertThat(redrive.expireDue()).isZero();

    assertThat(message(id).state()).isEqualTo(MessageState.READY);
    advance(MILLI);
    assertThat(redrive.expireDue()).isEqualTo(1);
  }

  @Test
  void expireDue_keepMode_deadInPlaceAsExpired() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    Instant expireAt = now().plus(DEADLINE);
    advance(DEADLINE.plusSeconds(5));

    redrive.expireDue();

    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.DEAD);
    assertThat(m.deadReason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(m.deadAt()).isEqualTo(now());
    assertThat(m.expireAt()).isEqualTo(expireAt);
    assertThat(m.lastError().retryable()).isFalse();
    assertThat(m.history()).extracting(HistoryEntry::outcome).containsExactly(Outcome.EXPIRED);
    assertNothingLeasable(QUEUE);
  }

  @Test
  void expireDue_twice_expiresOnce() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    enqueue(QUEUE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);
    assertThat(redrive.expireDue()).isZero();
  }

  @Test
  void lease_pastDeadline_expiresInsteadOfDelivering() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueue(QUEUE);
    advance(DEADLINE);

    LeaseResult result = lease(QUEUE, 10);

    assertThat(result.leased()).isEmpty();
    assertThat(result.expired()).containsExactly(id);
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(messagesIn(DLQ))
        .extracting(Message::deadReason)
        .containsExactly(FailureReason.EXPIRED);
  }

  @Test
  void lease_pastDeadlineBeforeMaxAttempts_expiredNotPoisoned() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withMaxAttempts(1));
    String id = enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(1));
    advance(DEADLINE);

    LeaseResult result = lease(QUEUE, 1);

    assertThat(result.expired()).containsExactly(id);
    assertThat(result.poisoned()).isEmpty();
    assertThat(message(id).deadReason()).isEqualTo(FailureReason.EXPIRED);
  }

  @Test
  void expireDue_leasedPastDeadline_deadAndHolderLosesLease() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, LONG_LEASE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.DEAD);
    assertThat(m.deadReason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(m.attempts()).isEqualTo(1);
    assertThat(m.history()).extracting(HistoryEntry::outcome).contains(Outcome.EXPIRED);
    assertThatThrownBy(() -> complete(leased)).isInstanceOf(LeaseLostException.class);
    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
  }

  @Test
  void expireDue_leasedPastDeadlineWithDeadLetterQueue_moved() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueue(QUEUE);
    leaseOne(QUEUE, LONG_LEASE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(messagesIn(DLQ)).extracting(Message::sourceId).containsExactly(id);
  }

  @Test
  void expireDue_scheduledMessagePastDeadline_expires() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(newMessage(QUEUE).delay(Duration.ofHours(1)).build());
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThat(message(id).deadReason()).isEqualTo(FailureReason.EXPIRED);
  }

  @Test
  void expireDue_messageDeadlineOverridesQueue() {
    createQueue(QUEUE, defaults().withExpireAfter(Duration.ofDays(1)));
    String shortLived = enqueue(newMessage(QUEUE).expireAfter(Duration.ofSeconds(30)).build());
    String normal = enqueue(QUEUE);
    advance(Duration.ofSeconds(30));

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThat(message(shortLived).state()).isEqualTo(MessageState.DEAD);
    assertThat(message(normal).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void expireDue_noDeadline_expiresNothing() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    advance(Duration.ofDays(365));

    assertThat(redrive.expireDue()).isZero();

    assertThat(message(id).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void expireDue_alreadyDeadMessage_notExpiredAgain() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueueAndKill(QUEUE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isZero();

    assertThat(message(id).deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
  }

  @Test
  void expireDue_discardMode_deletesMessage() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.discard()));
    String id = enqueue(QUEUE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
  }

  @Test
  void expireDue_onlyExpiresPastDeadlineAcrossQueues() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    createQueue(OTHER, defaults().withExpireAfter(DEADLINE.multipliedBy(2)));
    enqueue(QUEUE);
    String later = enqueue(OTHER);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThat(message(later).state()).isEqualTo(MessageState.READY);
  }

  // ---- the sweep reaches what leases never do ----

  @Test
  void expireDue_pausedQueue_expiresAndMovesToDeadLetterQueue() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueue(QUEUE);
    redrive.pauseQueue(QUEUE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(messagesIn(DLQ)).extracting(Message::sourceId).containsExactly(id);
    assertThat(redrive.getQueue(QUEUE).paused()).isTrue();
  }

  @Test
  void expireDue_queueNobodyLeasesFrom_getListAndStatsShowDead() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    advance(DEADLINE);

    redrive.expireDue();

    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
    assertThat(messagesIn(QUEUE)).extracting(Message::state).containsExactly(MessageState.DEAD);
    assertThat(stats(QUEUE).dead()).isEqualTo(1);
    assertThat(stats(QUEUE).ready()).isZero();
  }

  @Test
  void expireDue_scheduledRetryPastDeadline_expiresBeforeItIsVisible() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    failRetryAfter(leaseOne(QUEUE), Duration.ofHours(2));
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    Message m = message(id);
    assertThat(m.deadReason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(m.attempts()).isEqualTo(1);
    assertThat(outcomes(id)).containsExactly(Outcome.FAILED, Outcome.EXPIRED);
  }

  @Test
  void expireDue_leasedKeepMode_historyNamesTheHolder() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, LONG_LEASE);
    advance(DEADLINE.plusSeconds(1));

    redrive.expireDue();

    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.DEAD);
    HistoryEntry entry = last(m);
    assertThat(entry.outcome()).isEqualTo(Outcome.EXPIRED);
    assertThat(entry.attempt()).isEqualTo(1);
    assertThat(entry.worker()).isEqualTo(WORKER);
    assertThat(entry.failure().reason()).isEqualTo(FailureReason.EXPIRED);
    assertThatThrownBy(() -> redrive.renew(leased.token(), null))
        .isInstanceOf(LeaseLostException.class);
  }

  @Test
  void expireDue_leasedDiscardMode_deletesAndHolderLosesLease() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.discard()));
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, LONG_LEASE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(stats(QUEUE).total()).isZero();
    assertThatThrownBy(() -> complete(leased)).isInstanceOf(LeaseNotFoundException.class);
  }

  @Test
  void expireDue_haltStreamWithDeadLetterQueue_keptInPlace() {
    createQueue(DLQ);
    createQueue(
        QUEUE,
        defaults()
            .withExpireAfter(DEADLINE)
            .withStreamPolicy(StreamPolicy.HALT)
            .withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueueInStream(QUEUE, "acct-1");
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
    assertThat(message(id).deadReason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(messagesIn(DLQ)).isEmpty();
  }

  @Test
  void expireDue_smallBatches_expiresEveryDueMessage() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    List<String> ids = enqueueMany(QUEUE, 7);
    advance(DEADLINE);

    assertThat(redrive.expireDue(2)).isEqualTo(7);

    assertThat(ids).allSatisfy(id -> assertThat(message(id).state()).isEqualTo(MessageState.DEAD));
    assertThat(redrive.expireDue(2)).isZero();
  }

  @Test
  void expireDue_badBatchSize_refusedNamingIt() {
    assertThatThrownBy(() -> redrive.expireDue(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batchSize")
        .hasMessageContaining("0");
  }

  // ---- a lease whose message passed its deadline is lost ----

  private LeasedMessage leasedPastDeadline() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, Duration.ofSeconds(30));
    advance(DEADLINE);
    return leased;
  }

  private void assertStillLeasedUntouched(LeasedMessage leased) {
    Message m = message(leased.id());
    assertThat(m.state()).isEqualTo(MessageState.LEASED);
    assertThat(m.attempts()).isEqualTo(1);
    assertThat(m.history()).extracting(HistoryEntry::outcome).containsExactly(Outcome.LEASED);
  }

  @Test
  void complete_pastDeadlineNotYetSwept_leaseLostAndNothingChanges() {
    LeasedMessage leased = leasedPastDeadline();

    assertThatThrownBy(() -> complete(leased)).isInstanceOf(LeaseLostException.class);

    assertStillLeasedUntouched(leased);
    assertThat(redrive.expireDue()).isEqualTo(1);
    assertThat(message(leased.id()).deadReason()).isEqualTo(FailureReason.EXPIRED);
  }

  @Test
  void complete_oneMilliBeforeDeadline_completes() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, LONG_LEASE);
    advance(DEADLINE.minus(MILLI));

    complete(leased);

    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
  }

  @Test
  void fail_pastDeadline_leaseLost() {
    LeasedMessage leased = leasedPastDeadline();

    assertThatThrownBy(() -> fail(leased)).isInstanceOf(LeaseLostException.class);

    assertStillLeasedUntouched(leased);
  }

  @Test
  void abandon_pastDeadline_leaseLost() {
    LeasedMessage leased = leasedPastDeadline();

    assertThatThrownBy(
            () -> redrive.abandon(new AbandonRequest(leased.token(), Duration.ZERO, true, null)))
        .isInstanceOf(LeaseLostException.class);

    assertStillLeasedUntouched(leased);
  }

  @Test
  void renew_pastDeadline_leaseLost() {
    LeasedMessage leased = leasedPastDeadline();

    assertThatThrownBy(() -> redrive.renew(leased.token(), null))
        .isInstanceOf(LeaseLostException.class);

    assertStillLeasedUntouched(leased);
  }

  @Test
  void releaseAndRecordProgress_pastDeadline_leaseLost() {
    LeasedMessage leased = leasedPastDeadline();

    assertThatThrownBy(() -> redrive.release(List.of(leased.token())))
        .isInstanceOf(LeaseLostException.class);
    assertThatThrownBy(() -> redrive.recordProgress(leased.token(), 1L))
        .isInstanceOf(LeaseLostException.class);

    assertStillLeasedUntouched(leased);
  }

  @Test
  void completeAllAndFailAll_pastDeadline_reportedLost() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    createQueue(OTHER);
    String dueId = enqueue(QUEUE);
    LeasedMessage due = leaseOne(QUEUE, Duration.ofSeconds(30));
    enqueue(OTHER);
    enqueue(OTHER);
    List<LeasedMessage> fine = lease(OTHER, 2, LONG_LEASE).leased();
    advance(DEADLINE);

    CompleteAllResult completed = redrive.completeAll(List.of(due.token(), fine.get(0).token()));
    FailAllResult failed =
        redrive.failAll(
            List.of(
                FailRequest.of(due.token(), FailureReason.HANDLER_EXCEPTION, "boom"),
                FailRequest.of(fine.get(1).token(), FailureReason.HANDLER_EXCEPTION, "boom")));

    assertThat(completed.completed()).containsExactly(fine.get(0).id());
    assertThat(completed.lost()).containsExactly(dueId);
    assertThat(failed.lost()).containsExactly(dueId);
    assertThat(failed.failed()).extracting(r -> r.messageId()).containsExactly(fine.get(1).id());
    assertStillLeasedUntouched(due);
  }

  // ---- no lease outlives the deadline ----

  @Test
  void renew_leaseWouldPassDeadline_cappedAtDeadline() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    Instant deadline = now().plus(DEADLINE);
    LeasedMessage leased = leaseOne(QUEUE, Duration.ofMinutes(5));
    advance(Duration.ofMinutes(4));

    Instant expiry = redrive.renew(leased.token(), Duration.ofMinutes(30));

    assertThat(expiry).isEqualTo(deadline);
    assertThat(message(id).visibleAt()).isEqualTo(deadline);
    assertThat(redrive.renew(leased.token(), Duration.ofMinutes(1)))
        .isEqualTo(now().plus(Duration.ofMinutes(1)));
  }

  @Test
  void lease_leaseWouldPassDeadline_cappedAtDeadlineThenExpiresAtLease() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    Instant deadline = now().plus(DEADLINE);

    LeasedMessage leased = leaseOne(QUEUE, LONG_LEASE);

    assertThat(leased.leaseExpiresAt()).isEqualTo(deadline);
    assertThat(message(id).visibleAt()).isEqualTo(deadline);
    advance(DEADLINE);
    assertThat(lease(QUEUE, 1).expired()).containsExactly(id);
  }

  // ---- sweepers on many nodes ----

  @Test
  @Timeout(120)
  void expireDue_twoSweepersRacing_eachMessageDeadLetteredOnce() throws Exception {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.moveTo(DLQ)));
    int count = 120;
    List<String> ids = enqueueMany(QUEUE, count);
    lease(QUEUE, 40, LONG_LEASE); // a third of them leased: the sweep takes LEASED rows too
    advance(DEADLINE);
    List<Redrive> nodes = List.of(redrive, Redrive.builder(db.openStore()).clock(clock).build());
    CyclicBarrier start = new CyclicBarrier(nodes.size());
    AtomicInteger expired = new AtomicInteger();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (Redrive node : nodes) {
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int round = 0; round < 5; round++) {
                    expired.addAndGet(node.expireDue(7));
                  }
                } catch (Throwable e) {
                  errors.add(e);
                }
              },
              "sweeper");
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join();
    }

    assertThat(errors).isEmpty();
    assertThat(redrive.expireDue()).isZero();
    assertThat(expired.get()).isEqualTo(count);
    assertThat(stats(QUEUE).total()).isZero();
    List<Message> copies =
        redrive.listMessages(MessageQuery.all(DLQ).withLimit(MessageQuery.MAX_LIMIT)).messages();
    assertThat(copies).extracting(Message::sourceId).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(Set.copyOf(copies.stream().map(Message::sourceId).toList())).hasSize(count);
    for (Message copy : copies) {
      assertThat(message(copy.id()).history())
          .filteredOn(h -> h.outcome() == Outcome.EXPIRED)
          .hasSize(1);
    }
  }
}
