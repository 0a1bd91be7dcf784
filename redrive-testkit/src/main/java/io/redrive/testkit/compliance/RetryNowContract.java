package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.deadletter.RetryResult;
import io.redrive.error.ConflictException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.store.ReadySubscription;
import io.redrive.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * "Retry now": a SCHEDULED message (waiting for an automatic retry, or enqueued with a delay)
 * becomes visible at once with its attempts kept and a RETRIED_NOW history entry; any other state
 * is refused with {@code NOT_SCHEDULED} and changes nothing.
 */
public abstract class RetryNowContract extends ComplianceTestBase {
  private static final String OPERATOR = "ops@example.com";

  /** Leases the message and fails it with a long backoff: it waits for its automatic retry. */
  private String enqueueWaitingForRetry() {
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    assertThat(leased.id()).isEqualTo(id);
    failRetryAfter(leased, Duration.ofHours(1));
    assertThat(message(id).state()).isEqualTo(MessageState.SCHEDULED);
    return id;
  }

  private static void assertNotScheduled(Runnable call, String id) {
    assertThatThrownBy(call::run)
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining(id)
        .satisfies(e -> assertThat(((ConflictException) e).code()).isEqualTo("NOT_SCHEDULED"));
  }

  @Test
  void retryNow_waitingForRetry_visibleAtOnceWithAttemptsKept() {
    createQueue(QUEUE);
    String id = enqueueWaitingForRetry();
    advance(Duration.ofMinutes(5));

    Message retried = redrive.retryNow(id, OPERATOR);

    assertThat(retried.state()).isEqualTo(MessageState.READY);
    assertThat(retried.visibleAt()).isEqualTo(now());
    assertThat(retried.attempts()).isEqualTo(1);
    assertThat(retried.lastError()).isNotNull();
    assertThat(retried.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(Outcome.FAILED, Outcome.RETRIED_NOW);
    HistoryEntry entry = last(retried);
    assertThat(entry.worker()).isEqualTo(OPERATOR);
    assertThat(entry.settledAt()).isEqualTo(now());
    assertThat(entry.attempt()).isEqualTo(1);
    assertThat(entry.note()).contains("attempts kept at 1");
    assertThat(message(id)).isEqualTo(retried);
  }

  @Test
  void retryNow_thenLease_deliversTheNextAttempt() {
    createQueue(QUEUE, defaults().withMaxAttempts(3));
    String id = enqueueWaitingForRetry();

    redrive.retryNow(id, null);

    LeasedMessage again = leaseOne(QUEUE);
    assertThat(again.id()).isEqualTo(id);
    assertThat(again.attempt()).isEqualTo(2);
    assertThat(outcomes(id)).containsExactly(Outcome.FAILED, Outcome.RETRIED_NOW, Outcome.LEASED);
  }

  @Test
  void retryNow_delayedEnqueue_isAcceptedAndLeasable() {
    createQueue(QUEUE);
    String id = enqueue(newMessage(QUEUE).delay(Duration.ofHours(2)).build());
    assertNothingLeasable(QUEUE);

    Message retried = redrive.retryNow(id, null);

    assertThat(retried.state()).isEqualTo(MessageState.READY);
    assertThat(retried.attempts()).isZero();
    assertThat(leaseOne(QUEUE).id()).isEqualTo(id);
  }

  @Test
  void retryNow_wakesSubscribersOfTheQueue() {
    createQueue(QUEUE);
    String id = enqueueWaitingForRetry();
    AtomicInteger signals = new AtomicInteger();
    try (ReadySubscription ignored = store.subscribeReady(QUEUE, signals::incrementAndGet)) {
      redrive.retryNow(id, null);
    }
    assertThat(signals.get()).isPositive();
  }

  @Test
  void retryNow_readyMessage_refusedAndUnchanged() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    Message before = message(id);

    assertNotScheduled(() -> redrive.retryNow(id, OPERATOR), id);

    assertThat(message(id)).isEqualTo(before);
  }

  @Test
  void retryNow_leasedMessage_refusedAndLeaseStillSettles() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    Message before = message(id);

    assertNotScheduled(() -> redrive.retryNow(id, OPERATOR), id);

    assertThat(message(id)).isEqualTo(before);
    assertThat(complete(leased).state()).isEqualTo(MessageState.COMPLETED);
  }

  @Test
  void retryNow_deadMessage_refusedNamingTheDeadRetry() {
    createQueue(QUEUE);
    String id = enqueueAndKill(QUEUE);
    Message before = message(id);

    assertNotScheduled(() -> redrive.retryNow(id, OPERATOR), id);
    assertThatThrownBy(() -> redrive.retryNow(id, OPERATOR)).hasMessageContaining("DEAD");

    assertThat(message(id)).isEqualTo(before);
  }

  @Test
  void retryNow_unknownId_throwsMessageNotFound() {
    createQueue(QUEUE);
    String id = unknownId();

    assertThatThrownBy(() -> redrive.retryNow(id, null))
        .isInstanceOf(MessageNotFoundException.class)
        .hasMessageContaining(id);
  }

  @Test
  void retryNow_blankId_refusedNamingTheField() {
    assertThatThrownBy(() -> redrive.retryNow(" ", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("id");
    assertThatThrownBy(() -> redrive.retryNow(List.of(), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ids");
  }

  @Test
  void retryNowBulk_mixedIds_reportsRetriedSkippedAndNotFound() {
    createQueue(QUEUE);
    String waiting1 = enqueueWaitingForRetry();
    String waiting2 = enqueueWaitingForRetry();
    String dead = enqueueAndKill(QUEUE);
    String ready = enqueue(QUEUE);
    String missing = unknownId();

    RetryResult result =
        redrive.retryNow(List.of(waiting1, ready, missing, dead, waiting2), OPERATOR);

    assertThat(result.retried()).containsExactlyInAnyOrder(waiting1, waiting2);
    assertThat(result.skipped()).containsExactlyInAnyOrder(ready, dead);
    assertThat(result.notFound()).containsExactly(missing);
    assertThat(message(waiting1).state()).isEqualTo(MessageState.READY);
    assertThat(message(waiting2).attempts()).isEqualTo(1);
    assertThat(message(ready).history()).isEmpty();
    assertThat(message(dead).state()).isEqualTo(MessageState.DEAD);
  }

  @Test
  void retryNow_twice_secondIsSkipped() {
    createQueue(QUEUE);
    String id = enqueueWaitingForRetry();
    redrive.retryNow(List.of(id), null);

    RetryResult again = redrive.retryNow(List.of(id), null);

    assertThat(again.retried()).isEmpty();
    assertThat(again.skipped()).containsExactly(id);
    assertThat(outcomes(id)).containsExactly(Outcome.FAILED, Outcome.RETRIED_NOW);
  }

  @Test
  @Timeout(60)
  void retryNow_twoNodesRacingOverTheSameIds_eachMessageRetriedOnce() throws Exception {
    createQueue(QUEUE);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add(enqueueWaitingForRetry());
    }
    List<String> reversed = new ArrayList<>(ids);
    Collections.reverse(reversed);
    Store otherStore = db.openStore();
    try {
      Redrive other = Redrive.builder(otherStore).clock(clock).build();
      CountDownLatch start = new CountDownLatch(1);
      AtomicReference<RetryResult> first = new AtomicReference<>();
      AtomicReference<RetryResult> second = new AtomicReference<>();
      AtomicReference<Throwable> error = new AtomicReference<>();
      Thread a = race(start, error, () -> first.set(redrive.retryNow(ids, "a")));
      Thread b = race(start, error, () -> second.set(other.retryNow(reversed, "b")));
      start.countDown();
      a.join(60_000);
      b.join(60_000);

      assertThat(error.get()).isNull();
      List<String> retried = new ArrayList<>(first.get().retried());
      retried.addAll(second.get().retried());
      assertThat(retried).containsExactlyInAnyOrderElementsOf(ids);
      for (String id : ids) {
        assertThat(outcomes(id)).containsExactly(Outcome.FAILED, Outcome.RETRIED_NOW);
      }
    } finally {
      otherStore.close();
    }
  }

  private static Thread race(
      CountDownLatch start, AtomicReference<Throwable> error, Runnable body) {
    Thread thread =
        new Thread(
            () -> {
              try {
                start.await();
                body.run();
              } catch (Throwable t) {
                error.compareAndSet(null, t);
              }
            });
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
