package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.lease.CompleteAllResult;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.EnqueueResult;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.store.FindMessageParams;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The completion window: a completed message leaves its queue at once but is remembered for the
 * engine's {@code completionWindow}. Within it, the same lease completing again is answered as
 * completed ({@code repeated}, nothing changes), and an enqueue with the completed message's dedupe
 * key in the same queue is a duplicate of it; after it, or with a zero window, neither holds.
 */
public abstract class CompletionWindowContract extends ComplianceTestBase {
  private static final Duration WINDOW = Redrive.DEFAULT_COMPLETION_WINDOW;

  @Test
  void complete_repeatedWithSameToken_answersCompletedAgain() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    SettleResult first = complete(leased);
    advance(Duration.ofMinutes(1));

    SettleResult again = redrive.complete(leased.token());

    assertThat(first.repeated()).isFalse();
    assertThat(again.repeated()).isTrue();
    assertThat(again.messageId()).isEqualTo(id);
    assertThat(again.state()).isEqualTo(MessageState.COMPLETED);
    assertThat(again.queue()).isEqualTo(QUEUE);
    assertThat(again.leasedAt()).isEqualTo(first.leasedAt());
    assertThat(store.findMessage(new FindMessageParams(id, now()))).isEmpty();
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void complete_repeatedAtTheWindowsEnd_stillCompleted_afterItNotFound() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    complete(leased);

    advance(WINDOW);
    assertThat(redrive.complete(leased.token()).repeated()).isTrue();

    advance(MILLI);
    assertThatThrownBy(() -> redrive.complete(leased.token()))
        .isInstanceOf(LeaseNotFoundException.class);
  }

  @Test
  void complete_withAnEarlierLeasesToken_isNotAnsweredAsCompleted() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage expired = leaseOne(QUEUE, Duration.ofSeconds(30));
    advance(Duration.ofSeconds(31));
    LeasedMessage current = leaseOne(QUEUE);
    complete(current);

    assertThatThrownBy(() -> redrive.complete(expired.token()))
        .isInstanceOf(LeaseNotFoundException.class);
  }

  @Test
  void complete_ofAMessageStillLeasedByAnother_isLeaseLost() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage expired = leaseOne(QUEUE, Duration.ofSeconds(30));
    advance(Duration.ofSeconds(31));
    leaseOne(QUEUE);

    assertThatThrownBy(() -> redrive.complete(expired.token()))
        .isInstanceOf(LeaseLostException.class);
  }

  @Test
  void completeAll_repeated_answersEachAsCompleted_unknownTokensStayLost() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 3);
    LeaseResult leased = lease(QUEUE, 3);
    List<String> tokens = leased.leased().stream().map(LeasedMessage::token).toList();
    CompleteAllResult first = redrive.completeAll(tokens);
    String unknown = unknownToken();

    CompleteAllResult again =
        redrive.completeAll(List.of(tokens.get(0), tokens.get(1), tokens.get(2), unknown));

    assertThat(first.completed()).hasSize(3);
    assertThat(again.completed()).containsExactlyInAnyOrderElementsOf(first.completed());
    assertThat(again.lost()).containsExactly(unknown.substring(0, unknown.indexOf('.')));
  }

  @Test
  void completeAll_mixOfLiveAndRepeated_completesTheLiveOnes() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 2);
    LeaseResult leased = lease(QUEUE, 2);
    LeasedMessage a = leased.leased().get(0);
    LeasedMessage b = leased.leased().get(1);
    complete(a);

    CompleteAllResult both = redrive.completeAll(List.of(a.token(), b.token()));

    assertThat(both.completed()).containsExactlyInAnyOrder(a.id(), b.id());
    assertThat(both.lost()).isEmpty();
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void enqueue_dedupeKeyOfACompletedMessage_isItsDuplicateWithinTheWindow() {
    createQueue(QUEUE);
    String first = redrive.enqueue(keyed(QUEUE, "order-1")).id();
    complete(leaseOne(QUEUE));
    advance(WINDOW);

    EnqueueResult retry = redrive.enqueue(keyed(QUEUE, "order-1"));

    assertThat(retry.duplicate()).isTrue();
    assertThat(retry.id()).isEqualTo(first);
    assertThat(stats(QUEUE).total()).isZero();
    assertNothingLeasable(QUEUE);
  }

  @Test
  void enqueueBatch_mixOfCompletedKeysAndNewOnes_onlyTheNewOnesGoIn() {
    createQueue(QUEUE);
    createQueue(OTHER);
    String done = redrive.enqueue(keyed(QUEUE, "k1")).id();
    complete(leaseOne(QUEUE));

    List<EnqueueResult> results =
        redrive.enqueueBatch(
            List.of(
                keyed(QUEUE, "k1"),
                keyed(QUEUE, "k2"),
                keyed(OTHER, "k1"),
                newMessage(QUEUE).build()));

    assertThat(results.get(0).duplicate()).isTrue();
    assertThat(results.get(0).id()).isEqualTo(done);
    assertThat(results.subList(1, 4)).extracting(EnqueueResult::duplicate).containsOnly(false);
    assertThat(stats(QUEUE).total()).isEqualTo(2);
    assertThat(stats(OTHER).total()).isEqualTo(1);
  }

  @Test
  void enqueue_dedupeKeyOfAMessageThatDiedAndWasDropped_isNew() {
    createQueue(QUEUE);
    String dead = redrive.enqueue(keyed(QUEUE, "k")).id();
    failPermanently(leaseOne(QUEUE));
    redrive.drop(List.of(dead));

    EnqueueResult again = redrive.enqueue(keyed(QUEUE, "k"));

    assertThat(again.duplicate()).isFalse();
    assertThat(again.id()).isNotEqualTo(dead);
  }

  @Test
  void zeroWindow_remembersNothing() {
    Redrive forgetful = Redrive.builder(store).clock(clock).completionWindow(Duration.ZERO).build();
    createQueue(QUEUE);
    String first = forgetful.enqueue(keyed(QUEUE, "k")).id();
    LeasedMessage leased = leaseOne(QUEUE);
    forgetful.complete(leased.token());

    assertThatThrownBy(() -> forgetful.complete(leased.token()))
        .isInstanceOf(LeaseNotFoundException.class);
    EnqueueResult again = forgetful.enqueue(keyed(QUEUE, "k"));
    assertThat(again.duplicate()).isFalse();
    assertThat(again.id()).isNotEqualTo(first);
    assertThat(forgetful.forgetCompletions(100)).isZero();
  }

  @Test
  void forgetCompletions_deletesOnlyRecordsOlderThanTheWindow() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 3);
    for (LeasedMessage m : lease(QUEUE, 2).leased()) {
      complete(m);
    }
    advance(Duration.ofMinutes(3));
    LeasedMessage late = leaseOne(QUEUE);
    complete(late);
    advance(Duration.ofMinutes(3));

    assertThat(redrive.forgetCompletions(1)).isEqualTo(2);
    assertThat(redrive.forgetCompletions(10)).isZero();
    assertThat(redrive.complete(late.token()).repeated()).isTrue();
    advance(Duration.ofMinutes(3));
    assertThat(redrive.forgetCompletions(10)).isEqualTo(1);
    assertThatThrownBy(() -> redrive.complete(late.token()))
        .isInstanceOf(LeaseNotFoundException.class);
  }

  @Test
  void deleteQueue_forgetsItsCompletions() {
    createQueue(QUEUE);
    redrive.enqueue(keyed(QUEUE, "k"));
    complete(leaseOne(QUEUE));
    redrive.deleteQueue(QUEUE);
    createQueue(QUEUE);

    assertThat(redrive.enqueue(keyed(QUEUE, "k")).duplicate()).isFalse();
  }

  @Test
  void completionWindow_outOfRange_isRefusedNamingTheField() {
    assertThatThrownBy(() -> Redrive.builder(store).completionWindow(Duration.ofDays(8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("completionWindow")
        .hasMessageContaining("8d");
    assertThatThrownBy(() -> Redrive.builder(store).completionWindow(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("completionWindow");
  }

  /**
   * A producer's retry racing the consumer's complete: whichever commits first, the retry is a
   * duplicate of the first message (of the live one before the complete, of the completed one after
   * it), and no second message ever enters the queue.
   */
  @Test
  @Timeout(120)
  void enqueueRacingComplete_retryIsAlwaysADuplicate() throws Exception {
    createQueue(QUEUE);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 40; round++) {
        String key = "race-" + round;
        String first = redrive.enqueue(keyed(QUEUE, key)).id();
        LeasedMessage leased = leaseOne(QUEUE);
        CyclicBarrier start = new CyclicBarrier(2);
        Future<SettleResult> completing =
            pool.submit(
                () -> {
                  start.await();
                  return redrive.complete(leased.token());
                });
        Future<EnqueueResult> retrying =
            pool.submit(
                () -> {
                  start.await();
                  return redrive.enqueue(keyed(QUEUE, key));
                });
        assertThat(completing.get(30, TimeUnit.SECONDS).state()).isEqualTo(MessageState.COMPLETED);
        EnqueueResult retry = retrying.get(30, TimeUnit.SECONDS);
        assertThat(retry.duplicate()).as("round %d", round).isTrue();
        assertThat(retry.id()).as("round %d", round).isEqualTo(first);
        assertThat(stats(QUEUE).total()).as("round %d", round).isZero();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private NewMessage keyed(String queue, String key) {
    return newMessage(queue).dedupeKey(key).build();
  }
}
