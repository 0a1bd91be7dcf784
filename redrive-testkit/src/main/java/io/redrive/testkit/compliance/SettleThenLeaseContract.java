package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettledThenLeased;
import io.redrive.lease.Settlement;
import io.redrive.message.MessageState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Settle then lease in one call ({@link io.redrive.Redrive#settleThenLease}, what a worker does
 * under a backlog): the settles are answered as {@link io.redrive.Redrive#settle} answers them, the
 * lease that follows sees what they did, and when the lease fails nothing is settled either.
 */
public abstract class SettleThenLeaseContract extends ComplianceTestBase {

  private static SettleCommand completeOf(LeasedMessage m) {
    return new SettleCommand.Complete(LeaseToken.parse(m.token()));
  }

  private static SettleCommand failOf(LeasedMessage m, FailureReason reason) {
    return new SettleCommand.Fail(
        LeaseToken.parse(m.token()), reason, "boom", null, null, 0L, null);
  }

  private static SettleCommand releaseOf(LeasedMessage m) {
    return new SettleCommand.Release(LeaseToken.parse(m.token()));
  }

  private static LeaseRequest leaseOf(String queue, int max) {
    return new LeaseRequest(queue, WORKER, max, LONG_LEASE);
  }

  @Test
  void settlesThenLeases_theLeaseSeesWhatTheSettlesDid() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 4);
    List<LeasedMessage> m = lease(QUEUE, 3).leased();

    SettledThenLeased out =
        redrive.settleThenLease(
            List.of(
                completeOf(m.get(0)),
                failOf(m.get(1), FailureReason.HANDLER_EXCEPTION),
                releaseOf(m.get(2))),
            leaseOf(QUEUE, 5));

    assertThat(out.settlements()).allMatch(Settlement::settled);
    assertThat(out.settlements())
        .extracting(s -> s.result().state())
        .containsExactly(MessageState.COMPLETED, MessageState.SCHEDULED, MessageState.READY);
    // the released message is leased again by the same call; the failed one waits for its backoff
    assertThat(ids(out.lease())).containsExactlyInAnyOrder(ids.get(2), ids.get(3));
    assertThat(message(ids.get(2)).attempts()).isEqualTo(1); // refunded, then counted again
    assertThat(message(ids.get(1)).state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(messagesIn(QUEUE)).extracting(x -> x.id()).doesNotContain(ids.get(0));
  }

  @Test
  void lostLeases_areAnsweredForThemselves_andTheRestGoesOn() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 2);
    LeasedMessage first = leaseOne(QUEUE);

    SettledThenLeased out =
        redrive.settleThenLease(
            List.of(
                new SettleCommand.Complete(LeaseToken.parse(unknownToken())), completeOf(first)),
            leaseOf(QUEUE, 10));

    assertThat(out.settlements().get(0).lost()).isEqualTo(Settlement.Lost.NOT_FOUND);
    assertThat(out.settlements().get(1).settled()).isTrue();
    assertThat(ids(out.lease())).containsExactly(ids.get(1));
  }

  @Test
  void leaseOfAMissingQueue_throws_andNothingIsSettled() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage m = leaseOne(QUEUE);

    assertThatThrownBy(
            () -> redrive.settleThenLease(List.of(completeOf(m)), leaseOf("no-such-queue", 10)))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("no-such-queue");

    assertThat(message(id).state()).isEqualTo(MessageState.LEASED);
    assertThat(redrive.complete(m.token()).messageId()).isEqualTo(id); // the lease still holds
  }

  @Test
  void badInput_isRefusedBeforeAnythingChanges() {
    createQueue(QUEUE);
    String leasedId = enqueue(QUEUE);
    LeasedMessage m = leaseOne(QUEUE);
    String readyId = enqueue(QUEUE);

    assertThatThrownBy(() -> redrive.settleThenLease(List.of(completeOf(m)), leaseOf(QUEUE, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max");
    assertThatThrownBy(
            () ->
                redrive.settleThenLease(
                    List.of(
                        new SettleCommand.Complete(
                            LeaseToken.parse(m.token()), "{\"a\":\"\u0000\"}")),
                    leaseOf(QUEUE, 10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("result");

    assertThat(message(leasedId).state()).isEqualTo(MessageState.LEASED);
    assertThat(message(readyId).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void unregisteredHandlerFailure_isSettledApart_andTheLeaseStillRuns() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 2);
    LeasedMessage m = leaseOne(QUEUE);

    SettledThenLeased out =
        redrive.settleThenLease(
            List.of(failOf(m, FailureReason.UNREGISTERED_HANDLER)), leaseOf(QUEUE, 1));

    assertThat(out.settlements().get(0).settled()).isTrue();
    assertThat(message(ids.get(0)).state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(ids(out.lease())).containsExactly(ids.get(1));
  }

  @Test
  void noCommands_isALease() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    advance(Duration.ofMillis(1));

    SettledThenLeased out = redrive.settleThenLease(List.of(), leaseOf(QUEUE, 10));

    assertThat(out.settlements()).isEmpty();
    assertThat(ids(out.lease())).containsExactly(id);
  }
}
