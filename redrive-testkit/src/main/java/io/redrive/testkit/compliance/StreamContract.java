package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.StreamPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Streams (ordering keys): a stream message is leasable only as the oldest unfinished message of
 * its stream, and the queue's stream policy (HOLD, HALT, RELEASE) decides what later messages do
 * when the head fails.
 */
public abstract class StreamContract extends ComplianceTestBase {
  private static final String S = "customer-1";
  private static final String T = "customer-2";

  private List<String> enqueueStream(String stream, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(enqueueInStream(QUEUE, stream));
    }
    return ids;
  }

  private LeasedMessage leaseOneAs(String worker) {
    LeaseResult result = redrive.lease(LeaseRequest.of(QUEUE, worker, 1));
    assertThat(result.leased()).hasSize(1);
    return result.leased().get(0);
  }

  @Test
  void lease_streamMessages_deliveredOneAtATimeInEnqueueOrder() {
    createQueue(QUEUE);
    List<String> ids = enqueueStream(S, 4);

    for (String expected : ids) {
      LeasedMessage leased = leaseOne(QUEUE);
      assertThat(leased.id()).isEqualTo(expected);
      assertThat(leased.stream()).isEqualTo(S);
      assertNothingLeasable(QUEUE);
      complete(leased);
    }
  }

  @Test
  void lease_headInFlight_laterMessageNotLeasableByOtherWorker() {
    createQueue(QUEUE);
    List<String> ids = enqueueStream(S, 2);

    assertThat(leaseOneAs("w1").id()).isEqualTo(ids.get(0));

    LeaseResult other = redrive.lease(LeaseRequest.of(QUEUE, "w2", 10));
    assertThat(ids(other)).isEmpty();
  }

  @Test
  void lease_headLeaseExpired_headRedeliveredBeforeLaterMessages() {
    createQueue(QUEUE);
    List<String> ids = enqueueStream(S, 2);
    leaseOne(QUEUE, Duration.ofSeconds(5));
    advance(Duration.ofSeconds(5));

    LeasedMessage again = leaseOne(QUEUE);

    assertThat(again.id()).isEqualTo(ids.get(0));
    assertThat(again.attempt()).isEqualTo(2);
    assertNothingLeasable(QUEUE);
  }

  @Test
  void lease_batch_takesStreamMessagesOnlyAsOrderedPrefixFromHead() {
    createQueue(QUEUE);
    List<String> s = enqueueStream(S, 3);
    String plain = enqueue(QUEUE);
    List<String> t = enqueueStream(T, 2);

    LeaseResult result = redrive.lease(LeaseRequest.of(QUEUE, "w1", 10));

    Map<String, List<String>> byStream = new LinkedHashMap<>();
    for (LeasedMessage m : result.leased()) {
      byStream.computeIfAbsent(String.valueOf(m.stream()), k -> new ArrayList<>()).add(m.id());
    }
    assertThat(ids(result)).contains(s.get(0), plain, t.get(0));
    assertThat(s).startsWith(byStream.get(S).toArray(String[]::new));
    assertThat(t).startsWith(byStream.get(T).toArray(String[]::new));
    assertThat(ids(redrive.lease(LeaseRequest.of(QUEUE, "w2", 10)))).isEmpty();
  }

  @Test
  void lease_otherStreamsAndPlainMessages_notBlockedByAStreamHead() {
    createQueue(QUEUE);
    String s1 = enqueueInStream(QUEUE, S);
    enqueueInStream(QUEUE, S);
    String t1 = enqueueInStream(QUEUE, T);
    String plain = enqueue(QUEUE);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(s1);

    assertThat(ids(lease(QUEUE, 10))).containsExactly(t1, plain);
  }

  // ---- HOLD ----

  @Test
  void hold_headWaitingForRetry_laterMessagesWaitOthersFlow() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.HOLD));
    List<String> ids = enqueueStream(S, 2);
    String plain = enqueue(QUEUE);
    LeasedMessage head = leaseOne(QUEUE);
    assertThat(head.id()).isEqualTo(ids.get(0));

    fail(head);

    List<LeasedMessage> others = lease(QUEUE, 10).leased();
    assertThat(others).extracting(LeasedMessage::id).containsExactly(plain);
    complete(others.get(0));
    advance(Duration.ofMinutes(1).minus(MILLI));
    assertNothingLeasable(QUEUE);
    advance(MILLI);
    LeasedMessage retried = leaseOne(QUEUE);
    assertThat(retried.id()).isEqualTo(ids.get(0));
    assertThat(retried.attempt()).isEqualTo(2);
  }

  @Test
  void hold_headCompletesAfterRetry_streamContinuesInOrder() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.HOLD));
    List<String> ids = enqueueStream(S, 3);
    failRetryAfter(leaseOne(QUEUE), Duration.ofSeconds(10));
    advance(Duration.ofSeconds(10));

    complete(leaseOne(QUEUE));

    assertThat(leaseOne(QUEUE).id()).isEqualTo(ids.get(1));
  }

  @Test
  void hold_headDeadInPlace_streamContinues() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.HOLD));
    List<String> ids = enqueueStream(S, 2);

    failPermanently(leaseOne(QUEUE));

    assertThat(message(ids.get(0)).state()).isEqualTo(MessageState.DEAD);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(ids.get(1));
  }

  @Test
  void hold_headPoisoned_streamContinues() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.HOLD).withMaxAttempts(1));
    List<String> ids = enqueueStream(S, 2);
    leaseOne(QUEUE, Duration.ofSeconds(1));
    advance(Duration.ofSeconds(1));

    LeaseResult first = lease(QUEUE, 1);
    List<String> delivered = first.leased().isEmpty() ? ids(lease(QUEUE, 1)) : ids(first);

    assertThat(first.poisoned()).containsExactly(ids.get(0));
    assertThat(delivered).containsExactly(ids.get(1));
  }

  @Test
  void hold_headDeadMovedToDeadLetterQueue_streamContinues() {
    createQueue(DLQ);
    createQueue(
        QUEUE,
        defaults().withStreamPolicy(StreamPolicy.HOLD).withDeadLetter(DeadLetter.moveTo(DLQ)));
    List<String> ids = enqueueStream(S, 2);

    SettleResult dead = failPermanently(leaseOne(QUEUE));

    assertThat(dead.deadLetterQueue()).isEqualTo(DLQ);
    assertThat(messagesIn(DLQ)).extracting(Message::stream).containsExactly(S);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(ids.get(1));
  }

  @Test
  void hold_releasedLaterMessage_doesNotOvertakeHeadWaitingForRetry() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.HOLD));
    List<String> ids = enqueueStream(S, 3);
    List<LeasedMessage> batch = redrive.lease(LeaseRequest.of(QUEUE, "w1", 10)).leased();
    assumeTrue(
        batch.size() == 3,
        "store leases only the stream head per call; cascade release not reachable");
    assertThat(batch).extracting(LeasedMessage::id).containsExactlyElementsOf(ids);

    fail(batch.get(0));
    List<SettleResult> released =
        redrive.release(List.of(batch.get(1).token(), batch.get(2).token()));

    assertThat(released).extracting(SettleResult::state).containsOnly(MessageState.READY);
    assertThat(message(ids.get(1)).attempts()).isZero();
    assertThat(message(ids.get(2)).attempts()).isZero();
    assertThat(outcomes(ids.get(1))).containsExactly(Outcome.RELEASED);
    assertNothingLeasable(QUEUE);
    advance(Duration.ofMinutes(1));
    LeasedMessage head = leaseOne(QUEUE);
    assertThat(head.id()).isEqualTo(ids.get(0));
    assertThat(head.attempt()).isEqualTo(2);
    assertNothingLeasable(QUEUE);
    complete(head);
    LeasedMessage next = leaseOne(QUEUE);
    assertThat(next.id()).isEqualTo(ids.get(1));
    assertThat(next.attempt()).isEqualTo(1);
  }

  @Test
  void hold_headReleased_headServedAgainFirst() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.HOLD));
    List<String> ids = enqueueStream(S, 2);
    LeasedMessage head = leaseOne(QUEUE);

    redrive.release(List.of(head.token()));

    LeasedMessage again = leaseOne(QUEUE);
    assertThat(again.id()).isEqualTo(ids.get(0));
    assertThat(again.attempt()).isEqualTo(1);
  }

  // ---- HALT ----

  @Test
  void halt_headWaitingForRetry_laterMessagesWait() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.HALT));
    List<String> ids = enqueueStream(S, 2);

    fail(leaseOne(QUEUE));

    assertNothingLeasable(QUEUE);
    advance(Duration.ofMinutes(1));
    assertThat(leaseOne(QUEUE).id()).isEqualTo(ids.get(0));
  }

  @Test
  void halt_headDead_streamStopsAndHeadStaysInPlaceDespiteDeadLetterQueue() {
    createQueue(DLQ);
    createQueue(
        QUEUE,
        defaults().withStreamPolicy(StreamPolicy.HALT).withDeadLetter(DeadLetter.moveTo(DLQ)));
    List<String> ids = enqueueStream(S, 2);
    String plain = enqueue(QUEUE);

    SettleResult dead = failPermanently(leaseOne(QUEUE));

    assertThat(dead.state()).isEqualTo(MessageState.DEAD);
    assertThat(dead.deadLetterQueue()).isNull();
    assertThat(message(ids.get(0)).state()).isEqualTo(MessageState.DEAD);
    assertThat(messagesIn(DLQ)).isEmpty();
    List<LeasedMessage> others = lease(QUEUE, 10).leased();
    assertThat(others).extracting(LeasedMessage::id).containsExactly(plain);
    complete(others.get(0));
    advance(Duration.ofDays(1));
    assertNothingLeasable(QUEUE);
  }

  @Test
  void halt_deadHeadRetried_streamResumesInOrder() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.HALT));
    List<String> ids = enqueueStream(S, 2);
    failPermanently(leaseOne(QUEUE));

    redrive.retry(ids.get(0));

    LeasedMessage head = leaseOne(QUEUE);
    assertThat(head.id()).isEqualTo(ids.get(0));
    assertThat(head.attempt()).isEqualTo(1);
    assertNothingLeasable(QUEUE);
    complete(head);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(ids.get(1));
  }

  @Test
  void halt_deadHeadDropped_streamResumes() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.HALT));
    List<String> ids = enqueueStream(S, 2);
    failPermanently(leaseOne(QUEUE));

    redrive.drop(List.of(ids.get(0)));

    assertThat(leaseOne(QUEUE).id()).isEqualTo(ids.get(1));
  }

  @Test
  void halt_plainMessageDead_followsDeadLetterSetting() {
    createQueue(DLQ);
    createQueue(
        QUEUE,
        defaults().withStreamPolicy(StreamPolicy.HALT).withDeadLetter(DeadLetter.moveTo(DLQ)));
    enqueue(QUEUE);

    SettleResult dead = failPermanently(leaseOne(QUEUE));

    assertThat(dead.deadLetterQueue()).isEqualTo(DLQ);
  }

  // ---- RELEASE ----

  @Test
  void release_headWaitingForRetry_laterMessagesGoOn() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.RELEASE));
    List<String> ids = enqueueStream(S, 3);

    fail(leaseOne(QUEUE), FailureReason.HANDLER_EXCEPTION);

    LeasedMessage second = leaseOne(QUEUE);
    assertThat(second.id()).isEqualTo(ids.get(1));
    complete(second);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(ids.get(2));
  }

  @Test
  void release_headInFlight_laterMessageWaits() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.RELEASE));
    List<String> ids = enqueueStream(S, 2);

    assertThat(leaseOne(QUEUE).id()).isEqualTo(ids.get(0));

    assertThat(ids(redrive.lease(LeaseRequest.of(QUEUE, "w2", 10)))).isEmpty();
  }

  @Test
  void release_headBackFromRetry_deliveredAgain() {
    createQueue(QUEUE, defaults().withStreamPolicy(StreamPolicy.RELEASE));
    List<String> ids = enqueueStream(S, 2);
    fail(leaseOne(QUEUE));
    complete(leaseOne(QUEUE));

    advance(Duration.ofMinutes(1));

    LeasedMessage head = leaseOne(QUEUE);
    assertThat(head.id()).isEqualTo(ids.get(0));
    assertThat(head.attempt()).isEqualTo(2);
  }
}
