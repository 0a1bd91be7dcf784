package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.CompleteAllResult;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One settle call, many commands ({@link io.redrive.Redrive#settle}, the store's one settle
 * method): every mix of kinds settles each command as its single-lease method would, and every way
 * a lease can be lost (unknown, not current, re-leased, past its deadline, dead-lettered, named
 * twice) is answered for that command alone and changes nothing.
 */
public abstract class SettleMixContract extends ComplianceTestBase {

  private static SettleCommand completeCommand(LeasedMessage m) {
    return new SettleCommand.Complete(token(m));
  }

  private static SettleCommand.Fail failCommand(LeasedMessage m, FailureReason reason) {
    return new SettleCommand.Fail(token(m), reason, "boom", null, null, 0L, null);
  }

  private static SettleCommand abandonCommand(LeasedMessage m, Duration delay) {
    return new SettleCommand.Abandon(token(m), delay, false, "later", null);
  }

  private static SettleCommand releaseCommand(LeasedMessage m) {
    return new SettleCommand.Release(token(m));
  }

  private static LeaseToken token(LeasedMessage m) {
    return LeaseToken.parse(m.token());
  }

  private List<Settlement> settle(SettleCommand... commands) {
    return redrive.settle(List.of(commands));
  }

  @Test
  void allFourKinds_inOneCall_eachSettledAsItsKind_answersInOrder() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 4);
    List<LeasedMessage> m = lease(QUEUE, 4).leased();
    Instant at = now();

    List<Settlement> out =
        settle(
            releaseCommand(m.get(3)),
            abandonCommand(m.get(2), Duration.ofSeconds(10)),
            failCommand(m.get(1), FailureReason.HANDLER_EXCEPTION),
            completeCommand(m.get(0)));

    assertThat(out).allMatch(Settlement::settled);
    assertThat(out)
        .extracting(s -> s.result().messageId())
        .containsExactly(m.get(3).id(), m.get(2).id(), m.get(1).id(), m.get(0).id());
    assertThat(out)
        .extracting(s -> s.result().state())
        .containsExactly(
            MessageState.READY,
            MessageState.SCHEDULED,
            MessageState.SCHEDULED,
            MessageState.COMPLETED);
    assertThatThrownBy(() -> message(m.get(0).id())).isInstanceOf(MessageNotFoundException.class);
    Message failed = message(m.get(1).id());
    assertThat(last(failed).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(failed.attempts()).isEqualTo(1);
    assertThat(failed.visibleAt()).isEqualTo(at.plus(Duration.ofMinutes(1)));
    Message abandoned = message(m.get(2).id());
    assertThat(last(abandoned).outcome()).isEqualTo(Outcome.ABANDONED);
    assertThat(abandoned.attempts()).isEqualTo(1);
    assertThat(abandoned.visibleAt()).isEqualTo(at.plus(Duration.ofSeconds(10)));
    Message released = message(m.get(3).id());
    assertThat(last(released).outcome()).isEqualTo(Outcome.RELEASED);
    assertThat(released.attempts()).isZero();
    assertThat(released.state()).isEqualTo(MessageState.READY);
  }

  @Test
  void unknownMessage_isLostAsNotFound_forEveryKind_andTheOthersSettle() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage live = leaseOne(QUEUE);
    List<SettleCommand> commands = new ArrayList<>();
    commands.add(new SettleCommand.Complete(LeaseToken.parse(unknownToken())));
    commands.add(
        new SettleCommand.Fail(
            LeaseToken.parse(unknownToken()),
            FailureReason.HANDLER_EXCEPTION,
            "x",
            null,
            null,
            0L,
            null));
    commands.add(
        new SettleCommand.Abandon(
            LeaseToken.parse(unknownToken()), Duration.ZERO, false, null, null));
    commands.add(new SettleCommand.Release(LeaseToken.parse(unknownToken())));
    commands.add(completeCommand(live));

    List<Settlement> out = redrive.settle(commands);

    assertThat(out.subList(0, 4))
        .extracting(Settlement::lost)
        .containsOnly(Settlement.Lost.NOT_FOUND);
    assertThat(out.get(4).settled()).isTrue();
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void foreignToken_isLostAsNotCurrent_forEveryKind_andChangesNothing() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 4);
    List<LeasedMessage> m = lease(QUEUE, 4).leased();
    List<SettleCommand> commands = new ArrayList<>();
    commands.add(new SettleCommand.Complete(LeaseToken.parse(foreignToken(m.get(0).id()))));
    commands.add(
        new SettleCommand.Fail(
            LeaseToken.parse(foreignToken(m.get(1).id())),
            FailureReason.HANDLER_EXCEPTION,
            "x",
            null,
            null,
            0L,
            null));
    commands.add(
        new SettleCommand.Abandon(
            LeaseToken.parse(foreignToken(m.get(2).id())), Duration.ZERO, false, null, null));
    commands.add(new SettleCommand.Release(LeaseToken.parse(foreignToken(m.get(3).id()))));

    List<Settlement> out = redrive.settle(commands);

    assertThat(out).extracting(Settlement::lost).containsOnly(Settlement.Lost.NOT_CURRENT);
    for (LeasedMessage leased : m) {
      assertThat(message(leased.id()).state()).isEqualTo(MessageState.LEASED);
      assertThat(outcomes(leased.id())).containsExactly(Outcome.LEASED); // the running delivery
    }
    // the real tokens still settle afterwards: nothing was taken from them
    assertThat(settle(completeCommand(m.get(0)), releaseCommand(m.get(3))))
        .allMatch(Settlement::settled);
  }

  @Test
  void reLeasedAndPastDeadlineAndDeadInPlace_areLostAsNotCurrent_theOthersSettle() {
    createQueue(QUEUE);
    String expiring = enqueue(newMessage(QUEUE).expireAfter(Duration.ofMinutes(10)).build());
    LeasedMessage pastDeadline = leaseOne(QUEUE, LONG_LEASE);
    assertThat(pastDeadline.id()).isEqualTo(expiring);
    enqueue(QUEUE);
    LeasedMessage stale = leaseOne(QUEUE, Duration.ofSeconds(30));
    enqueue(QUEUE);
    LeasedMessage killed = leaseOne(QUEUE, LONG_LEASE);
    enqueue(QUEUE);
    LeasedMessage live = leaseOne(QUEUE, LONG_LEASE);
    redrive.fail(
        io.redrive.lease.FailRequest.of(killed.token(), FailureReason.VALIDATION_FAILURE, "bad"));
    advance(Duration.ofMinutes(10)); // the deadline of the first, the lease of the second pass
    LeasedMessage again = leaseOne(QUEUE, LONG_LEASE);
    assertThat(again.id()).isEqualTo(stale.id());

    List<Settlement> out =
        settle(
            completeCommand(stale),
            failCommand(pastDeadline, FailureReason.HANDLER_EXCEPTION),
            releaseCommand(killed),
            completeCommand(live));

    assertThat(out.subList(0, 3))
        .extracting(Settlement::lost)
        .containsOnly(Settlement.Lost.NOT_CURRENT);
    assertThat(out.get(3).settled()).isTrue();
    assertThat(message(stale.id()).state()).isEqualTo(MessageState.LEASED);
    assertThat(message(stale.id()).attempts()).isEqualTo(2);
    assertThat(outcomes(pastDeadline.id())).containsExactly(Outcome.LEASED);
    assertThat(message(killed.id()).state()).isEqualTo(MessageState.DEAD);
    assertThat(outcomes(killed.id())).doesNotContain(Outcome.RELEASED);
  }

  @Test
  void deadLetteredIntoAnotherQueue_isLostAsNotFound() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    enqueueMany(QUEUE, 2);
    List<LeasedMessage> m = lease(QUEUE, 2).leased();
    redrive.fail(
        io.redrive.lease.FailRequest.of(m.get(0).token(), FailureReason.VALIDATION_FAILURE, "bad"));

    List<Settlement> out = settle(releaseCommand(m.get(0)), releaseCommand(m.get(1)));

    assertThat(out.get(0).lost()).isEqualTo(Settlement.Lost.NOT_FOUND);
    assertThat(out.get(1).settled()).isTrue();
    assertThat(messagesIn(DLQ)).hasSize(1);
    assertThat(last(message(messagesIn(DLQ).get(0).id())).outcome())
        .isEqualTo(Outcome.DEAD_LETTERED);
  }

  @Test
  void aMessageNamedTwice_firstCommandRuns_laterOnesAreDuplicates() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 2);
    List<LeasedMessage> m = lease(QUEUE, 2).leased();

    List<Settlement> out =
        settle(
            failCommand(m.get(0), FailureReason.HANDLER_EXCEPTION),
            completeCommand(m.get(0)),
            completeCommand(m.get(1)),
            completeCommand(m.get(1)),
            releaseCommand(m.get(1)));

    assertThat(out)
        .extracting(Settlement::settled)
        .containsExactly(true, false, true, false, false);
    assertThat(out.get(1).lost()).isEqualTo(Settlement.Lost.DUPLICATE);
    assertThat(out.get(3).lost()).isEqualTo(Settlement.Lost.DUPLICATE);
    assertThat(out.get(4).lost()).isEqualTo(Settlement.Lost.DUPLICATE);
    Message failed = message(m.get(0).id());
    assertThat(outcomes(failed.id())).containsExactly(Outcome.FAILED);
    assertThatThrownBy(() -> message(m.get(1).id())).isInstanceOf(MessageNotFoundException.class);
  }

  /** Over the batch APIs a token named twice is not an error: it is listed as its first naming. */
  @Test
  void completeAll_sameTokenTwice_listedCompletedTwice_anotherTokenOfItIsLost() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage m = leaseOne(QUEUE);

    CompleteAllResult result =
        redrive.completeAll(List.of(m.token(), m.token(), foreignToken(m.id())));

    assertThat(result.completed()).containsExactly(m.id(), m.id());
    assertThat(result.lost()).containsExactly(m.id());
  }

  @Test
  void failThatKills_and_completes_inOneCall() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withMaxAttempts(1).withDeadLetter(DeadLetter.moveTo(DLQ)));
    enqueueMany(QUEUE, 3);
    List<LeasedMessage> m = lease(QUEUE, 3).leased();

    List<Settlement> out =
        settle(
            completeCommand(m.get(0)),
            failCommand(m.get(1), FailureReason.HANDLER_EXCEPTION),
            completeCommand(m.get(2)));

    assertThat(out).allMatch(Settlement::settled);
    assertThat(out.get(1).result().state()).isEqualTo(MessageState.DEAD);
    assertThat(out.get(1).result().deadLetterQueue()).isEqualTo(DLQ);
    assertThat(out.get(1).result().deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(stats(QUEUE).total()).isZero();
    assertThat(stats(DLQ).total()).isEqualTo(1);
  }

  @Test
  void completeRepeatedWithinTheWindow_inAMix_isAnsweredRepeated() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 2);
    List<LeasedMessage> m = lease(QUEUE, 2).leased();
    settle(completeCommand(m.get(0)));

    List<Settlement> out =
        settle(completeCommand(m.get(0)), failCommand(m.get(1), FailureReason.UNKNOWN));

    assertThat(out).allMatch(Settlement::settled);
    assertThat(out.get(0).result().repeated()).isTrue();
    assertThat(out.get(0).result().state()).isEqualTo(MessageState.COMPLETED);
    assertThat(out.get(1).result().repeated()).isFalse();
  }

  @Test
  void unregisteredHandlerFailure_inAMix_isAbandonedWithItsBackoff_othersSettle() {
    createQueue(QUEUE);
    workerNamingTypeLive(QUEUE, TYPE);
    enqueueMany(QUEUE, 2);
    List<LeasedMessage> m = lease(QUEUE, 2).leased();
    Instant at = now();

    List<Settlement> out =
        settle(
            completeCommand(m.get(0)),
            failCommand(m.get(1), FailureReason.UNREGISTERED_HANDLER),
            releaseCommand(m.get(1)));

    assertThat(out).extracting(Settlement::settled).containsExactly(true, true, false);
    assertThat(out.get(2).lost()).isEqualTo(Settlement.Lost.DUPLICATE);
    Message abandoned = message(m.get(1).id());
    assertThat(last(abandoned).outcome()).isEqualTo(Outcome.ABANDONED);
    assertThat(last(abandoned).failure().reason()).isEqualTo(FailureReason.UNREGISTERED_HANDLER);
    assertThat(abandoned.visibleAt()).isEqualTo(at.plus(Duration.ofSeconds(1)));
  }

  @Test
  void release_allOrNothing_oneLostTokenReleasesNone() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 2);
    List<LeasedMessage> m = lease(QUEUE, 2).leased();

    assertThatThrownBy(
            () -> redrive.release(List.of(m.get(0).token(), foreignToken(m.get(1).id()))))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining(m.get(1).id());
    assertThatThrownBy(() -> redrive.release(List.of(m.get(1).token(), unknownToken())))
        .isInstanceOf(LeaseNotFoundException.class);
    assertThatThrownBy(() -> redrive.release(List.of(m.get(0).token(), m.get(0).token())))
        .isInstanceOf(LeaseLostException.class);

    for (LeasedMessage leased : m) {
      assertThat(message(leased.id()).state()).isEqualTo(MessageState.LEASED);
      assertThat(outcomes(leased.id())).containsExactly(Outcome.LEASED);
    }
  }

  @Test
  void badInput_namesTheProblem_andChangesNothing() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage m = leaseOne(QUEUE);

    assertThatThrownBy(() -> redrive.settle(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("commands");
    assertThatThrownBy(() -> redrive.settle(Collections.nCopies(1001, completeCommand(m))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 1000");
    assertThatThrownBy(() -> redrive.settle(java.util.Arrays.asList(completeCommand(m), null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("command");
    assertThatThrownBy(() -> settle(completeCommand(m), failCommand(m, FailureReason.POISON)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("POISON");
    assertThatThrownBy(
            () ->
                settle(
                    completeCommand(m),
                    new SettleCommand.Abandon(token(m), Duration.ofSeconds(-1), false, null, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("delay");

    assertThat(message(m.id()).state()).isEqualTo(MessageState.LEASED);
  }
}
