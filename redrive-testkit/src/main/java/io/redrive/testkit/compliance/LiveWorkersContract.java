package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.LiveWorker;
import io.redrive.lease.WaitingType;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Live workers and unserved types (docs/engine.md, "Live workers and unserved types"): lease calls
 * are recorded per worker, queue and the types they name (at most every {@link
 * LiveWorker#RECORD_INTERVAL}); a type whose oldest ready message waited longer than the engine's
 * {@code unservedAfter} (default 5 min) with no live worker taking it is unserved, and clears when
 * one does; an unregistered-handler failure while no live worker names the type is refunded.
 */
public abstract class LiveWorkersContract extends ComplianceTestBase {
  private static final Duration AFTER = Duration.ofMinutes(5);

  @BeforeEach
  void createQueues() {
    createQueue(QUEUE);
    createQueue(OTHER);
  }

  private LeaseResult leaseAs(String worker, String... types) {
    return redrive.lease(LeaseRequest.of(QUEUE, worker, 10).withTypes(Set.of(types)));
  }

  private String enqueueOf(String type) {
    return enqueue(NewMessage.builder(QUEUE, type).payload(PAYLOAD).build());
  }

  @Test
  void lease_recordsWorkerAndNamedTypes_evenWhenNothingIsLeased() {
    Instant at = now();
    leaseAs("w-any");
    leaseAs("w-ab", "b", "a");
    redrive.lease(LeaseRequest.of(OTHER, "w-other", 1));

    assertThat(redrive.queueWorkers(QUEUE).workers())
        .containsExactly(
            new LiveWorker("w-ab", QUEUE, Set.of("a", "b"), at),
            new LiveWorker("w-any", QUEUE, Set.of(), at));
    assertThat(redrive.queueWorkers(OTHER).workers())
        .extracting(LiveWorker::worker)
        .containsExactly("w-other");
  }

  @Test
  void lease_recordedAtMostOncePerInterval_andLiveOnlyWithinUnservedAfter() {
    Instant first = now();
    leaseAs("w1", "a");
    advance(LiveWorker.RECORD_INTERVAL.minusSeconds(1));
    leaseAs("w1", "a");
    assertThat(redrive.queueWorkers(QUEUE).workers().get(0).lastLeaseAt()).isEqualTo(first);

    Instant second = advance(Duration.ofSeconds(1));
    leaseAs("w1", "a");
    assertThat(redrive.queueWorkers(QUEUE).workers().get(0).lastLeaseAt()).isEqualTo(second);

    advance(AFTER);
    assertThat(redrive.queueWorkers(QUEUE).workers()).extracting(LiveWorker::worker).contains("w1");
    advance(MILLI);
    assertThat(redrive.queueWorkers(QUEUE).workers()).isEmpty();
  }

  @Test
  void type_unservedOnlyAfterWaitingLongerThanUnservedAfter_withNoWorkerTakingIt() {
    Instant readySince = now();
    enqueueOf("b");
    enqueueOf("a");
    advance(AFTER.minusSeconds(1));
    leaseAs("w-a", "a");
    assertThat(redrive.queueWorkers(QUEUE).unserved()).isEmpty();

    advance(Duration.ofSeconds(1));
    assertThat(redrive.queueWorkers(QUEUE).unserved())
        .containsExactly(new WaitingType(QUEUE, "b", readySince));
    assertThat(redrive.queueWorkers(OTHER).unserved()).isEmpty();
  }

  @Test
  void untypedWorker_takesEveryType_andScheduledOrLeasedMessagesDoNotWait() {
    enqueueOf("b");
    enqueue(NewMessage.builder(QUEUE, "later").payload(PAYLOAD).delay(Duration.ofHours(1)).build());
    String leased = enqueueOf("held");
    leaseAs("w-held", "held");
    assertThat(redrive.getMessage(leased).state()).isEqualTo(MessageState.LEASED);
    advance(AFTER.plusSeconds(1));
    assertThat(redrive.queueWorkers(QUEUE).unserved())
        .extracting(WaitingType::type)
        .containsExactly("b");

    leaseAs("w-any").leased().forEach(m -> redrive.release(java.util.List.of(m.token())));
    assertThat(redrive.queueWorkers(QUEUE).unserved()).isEmpty();
  }

  @Test
  void check_raisesThenClearsWhenAWorkerForTheTypeStartsAndDrains() {
    enqueueOf("b");
    advance(AFTER.plusSeconds(1));
    assertThat(redrive.checkUnservedTypes()).extracting(WaitingType::type).containsExactly("b");
    assertThat(redrive.unservedTypes()).extracting(WaitingType::queue).containsExactly(QUEUE);

    LeasedMessage b = leaseAs("w-b", "b").leased().get(0);
    redrive.complete(b.token());
    assertThat(redrive.checkUnservedTypes()).isEmpty();
    assertThat(redrive.unservedTypes()).isEmpty();
  }

  @Test
  void check_skipsPausedQueues() {
    enqueueOf("b");
    redrive.pauseQueue(QUEUE);
    advance(AFTER.plusSeconds(1));
    assertThat(redrive.checkUnservedTypes()).isEmpty();
  }

  @Test
  void unregisteredFailure_refundedWhileNoLiveWorkerNamesTheType_countedOnceOneDoes() {
    String id = enqueueOf("b");
    LeasedMessage first = leaseAs("w-any").leased().get(0);
    redrive.fail(FailRequest.of(first.token(), FailureReason.UNREGISTERED_HANDLER, null));

    Message refunded = message(id);
    assertThat(refunded.attempts()).isZero();
    assertThat(refunded.state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(refunded.visibleAt()).isEqualTo(now().plusSeconds(60));
    assertThat(last(refunded).outcome()).isEqualTo(Outcome.ABANDONED);
    assertThat(last(refunded).failure().reason()).isEqualTo(FailureReason.UNREGISTERED_HANDLER);

    leaseAs("w-b", "b"); // a worker for b is live, though the message is not visible yet
    advance(Duration.ofSeconds(60));
    LeasedMessage second = leaseAs("w-any").leased().get(0);
    redrive.fail(FailRequest.of(second.token(), FailureReason.UNREGISTERED_HANDLER, null));
    assertThat(message(id).attempts()).isEqualTo(1);
  }

  /**
   * Three nodes (engines of their own on one database, each with its own throttle and alerts): two
   * run workers for "a" only; "report" waits, every node raises it alike and nothing is poisoned or
   * charged; an untyped worker bouncing it meanwhile is refunded; when the third node starts a
   * worker naming "report" and drains it, every node clears it.
   */
  @Test
  void threeNodes_typeWithNoLiveWorker_raisedOnEveryNode_nothingPoisoned_clearedWhenServed() {
    Redrive[] nodes = new Redrive[3];
    for (int i = 0; i < 3; i++) {
      nodes[i] = Redrive.builder(store).clock(clock).build();
    }
    redrive.updateQueue(QUEUE, io.redrive.queue.QueueUpdate.builder().maxAttempts(2).build());
    String report = enqueueOf("report");
    String bounced = enqueueOf("report");
    for (int minute = 0; minute < 6; minute++) {
      aWorkersLease(nodes);
      advance(Duration.ofMinutes(1));
    }
    // An untyped worker of an old build, lacking "report", bounces both three times: refunded.
    for (int round = 0; round < 3; round++) {
      for (LeasedMessage m : nodes[1].lease(LeaseRequest.of(QUEUE, "old-build", 10)).leased()) {
        nodes[1].fail(FailRequest.of(m.token(), FailureReason.UNREGISTERED_HANDLER, null));
      }
      advance(Duration.ofMinutes(2));
      aWorkersLease(nodes);
    }
    advance(AFTER.plusMinutes(2)); // the old build is gone; "report" waited past the threshold
    aWorkersLease(nodes);

    for (Redrive node : nodes) {
      assertThat(node.checkUnservedTypes()).extracting(WaitingType::type).containsExactly("report");
    }
    assertThat(message(report).attempts()).isZero();
    assertThat(message(bounced).attempts()).isZero();
    assertThat(message(bounced).state()).isNotEqualTo(MessageState.DEAD);

    LeaseResult served =
        nodes[2].lease(LeaseRequest.of(QUEUE, "report-worker", 10).withTypes(Set.of("report")));
    assertThat(ids(served)).containsExactlyInAnyOrder(report, bounced);
    served.leased().forEach(m -> nodes[2].complete(m.token()));
    for (Redrive node : nodes) {
      assertThat(node.checkUnservedTypes()).isEmpty();
    }
  }

  private static void aWorkersLease(Redrive[] nodes) {
    for (int n = 0; n < 2; n++) {
      nodes[n].lease(LeaseRequest.of(QUEUE, "a-worker-" + n, 10).withTypes(Set.of("a")));
    }
  }

  @Test
  void queueWorkers_unknownQueue_notFound() {
    assertThatThrownBy(() -> redrive.queueWorkers("no-such-queue"))
        .isInstanceOf(QueueNotFoundException.class);
  }
}
