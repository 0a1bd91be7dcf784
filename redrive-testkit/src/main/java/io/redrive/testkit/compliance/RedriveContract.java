package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.deadletter.RedriveRequest;
import io.redrive.deadletter.RedriveResult;
import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redrive: dead messages move from a dead-letter queue back to their source queue or another, with
 * a new id, attempts reset and history kept plus a REDRIVEN entry; filters, limit and dry run.
 */
public abstract class RedriveContract extends ComplianceTestBase {
  private static final String OTHER_TYPE = "charge-card";

  @BeforeEach
  void createQueues() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    createQueue(OTHER);
  }

  /** Kills one message of {@code type} with {@code reason}; returns its DLQ copy's id. */
  private String deadLetter(String type, FailureReason reason) {
    String id = enqueue(messageOfType(type));
    LeasedMessage leased = leaseOne(QUEUE);
    assertThat(leased.id()).isEqualTo(id);
    redrive.fail(FailRequest.of(leased.token(), reason, "boom").withRetryable(false));
    return messagesIn(DLQ).stream()
        .filter(m -> id.equals(m.sourceId()))
        .findFirst()
        .orElseThrow()
        .id();
  }

  private NewMessage messageOfType(String type) {
    return NewMessage.builder(QUEUE, type).payload(PAYLOAD).headers(headers()).build();
  }

  private String deadLetter() {
    return deadLetter(TYPE, FailureReason.VALIDATION_FAILURE);
  }

  @Test
  void redrive_toSourceQueue_movesKeepingIdResetAttemptsAndHistory() {
    String copyId = deadLetter();
    Message copy = message(copyId);
    advance(Duration.ofMinutes(3));

    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ));

    assertThat(result.dryRun()).isFalse();
    assertThat(result.count()).isEqualTo(1);
    RedriveResult.Move move = result.moves().get(0);
    assertThat(move.deadLetterId()).isEqualTo(copyId);
    assertThat(move.toQueue()).isEqualTo(QUEUE);
    // The row moves back keeping its id (docs/design-decisions.md #6), so it stays traceable.
    assertThat(move.newId()).isEqualTo(copyId).isNotEqualTo(copy.sourceId());
    assertThat(stats(DLQ).total()).isZero();

    Message back = message(move.newId());
    assertThat(back.queue()).isEqualTo(QUEUE);
    assertThat(back.state()).isEqualTo(MessageState.READY);
    assertThat(back.attempts()).isZero();
    assertThat(back.deadReason()).isNull();
    assertThat(back.type()).isEqualTo(TYPE);
    assertThat(back.payload()).isEqualTo(PAYLOAD);
    assertThat(back.headers()).isEqualTo(headers());
    assertThat(back.visibleAt()).isEqualTo(now());
    assertThat(back.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(Outcome.FAILED, Outcome.DEAD_LETTERED, Outcome.REDRIVEN);
    assertThat(last(back).note()).contains(DLQ);
  }

  @Test
  void redrive_byIds_movesOnlyThose_andRecordsTheActor() {
    String first = deadLetter();
    String second = deadLetter();

    RedriveResult dry =
        redrive.redrive(RedriveRequest.all(DLQ).withIds(Set.of(second)).withDryRun(true));
    assertThat(dry.moves()).extracting(RedriveResult.Move::deadLetterId).containsExactly(second);
    RedriveResult result =
        redrive.redrive(RedriveRequest.all(DLQ).withIds(Set.of(second)).withActor("ui:ada"));

    assertThat(result.moves()).extracting(RedriveResult.Move::deadLetterId).containsExactly(second);
    assertThat(message(first).queue()).isEqualTo(DLQ);
    assertThat(message(second).queue()).isEqualTo(QUEUE);
    assertThat(last(message(second)).worker()).isEqualTo("ui:ada");
    assertThat(redrive.redrive(RedriveRequest.all(DLQ).withIds(Set.of())).count()).isZero();
    assertThat(message(first).queue()).isEqualTo(DLQ);
  }

  @Test
  void redrive_thenLease_deliversAttemptOne() {
    deadLetter();
    String newId = redrive.redrive(RedriveRequest.all(DLQ)).moves().get(0).newId();

    LeasedMessage leased = leaseOne(QUEUE);

    assertThat(leased.id()).isEqualTo(newId);
    assertThat(leased.attempt()).isEqualTo(1);
  }

  @Test
  void redrive_toOtherQueue_landsThere() {
    deadLetter();

    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ).withTo(OTHER));

    assertThat(result.moves()).extracting(RedriveResult.Move::toQueue).containsExactly(OTHER);
    assertThat(message(result.moves().get(0).newId()).queue()).isEqualTo(OTHER);
    assertThat(stats(QUEUE).total()).isZero();
    assertThat(leaseOne(OTHER).attempt()).isEqualTo(1);
  }

  @Test
  void redrive_byDeadReason_movesOnlyMatching() {
    String validation = deadLetter(TYPE, FailureReason.VALIDATION_FAILURE);
    String handler = deadLetter(TYPE, FailureReason.HANDLER_EXCEPTION);

    RedriveResult result =
        redrive.redrive(
            RedriveRequest.all(DLQ).withDeadReasons(Set.of(FailureReason.HANDLER_EXCEPTION)));

    assertThat(result.moves())
        .extracting(RedriveResult.Move::deadLetterId)
        .containsExactly(handler);
    assertThat(messagesIn(DLQ)).extracting(Message::id).containsExactly(validation);
  }

  @Test
  void redrive_byType_movesOnlyMatching() {
    String email = deadLetter(TYPE, FailureReason.VALIDATION_FAILURE);
    String card = deadLetter(OTHER_TYPE, FailureReason.VALIDATION_FAILURE);

    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ).withTypes(Set.of(OTHER_TYPE)));

    assertThat(result.moves()).extracting(RedriveResult.Move::deadLetterId).containsExactly(card);
    assertThat(messagesIn(DLQ)).extracting(Message::id).containsExactly(email);
  }

  @Test
  void redrive_byDeadTime_movesOnlyThoseThatDiedInTheWindow() {
    Instant t0 = now();
    String early = deadLetter();
    advance(Duration.ofHours(1));
    String middle = deadLetter();
    advance(Duration.ofHours(1));
    String late = deadLetter();

    RedriveResult result =
        redrive.redrive(
            RedriveRequest.all(DLQ)
                .withDeadBetween(t0.plus(Duration.ofHours(1)), t0.plus(Duration.ofHours(2))));

    assertThat(result.moves()).extracting(RedriveResult.Move::deadLetterId).containsExactly(middle);
    assertThat(messagesIn(DLQ)).extracting(Message::id).containsExactlyInAnyOrder(early, late);
  }

  @Test
  void redrive_limit_movesAtMostLimit() {
    deadLetter();
    deadLetter();
    deadLetter();

    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ).withLimit(2));

    assertThat(result.count()).isEqualTo(2);
    assertThat(stats(DLQ).dead()).isEqualTo(1);
    assertThat(stats(QUEUE).ready()).isEqualTo(2);
  }

  @Test
  void redrive_dryRun_reportsMovesAndChangesNothing() {
    String copyId = deadLetter();
    Message before = message(copyId);

    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ).withDryRun(true));

    assertThat(result.dryRun()).isTrue();
    assertThat(result.moves()).containsExactly(new RedriveResult.Move(copyId, QUEUE, null));
    assertThat(message(copyId)).isEqualTo(before);
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void redrive_emptyDeadLetterQueue_movesNothing() {
    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ));

    assertThat(result.moves()).isEmpty();
  }

  @Test
  void redrive_unknownFromQueue_throwsQueueNotFound() {
    assertThatThrownBy(() -> redrive.redrive(RedriveRequest.all("nope")))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");
  }

  @Test
  void redrive_unknownTargetQueue_throwsQueueNotFoundAndMovesNothing() {
    String copyId = deadLetter();

    assertThatThrownBy(() -> redrive.redrive(RedriveRequest.all(DLQ).withTo("nope")))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");

    assertThat(message(copyId).state()).isEqualTo(MessageState.DEAD);
  }

  @Test
  void redrive_messageDiesAgain_movedBackToDeadLetterQueue() {
    deadLetter();
    redrive.redrive(RedriveRequest.all(DLQ));

    failPermanently(leaseOne(QUEUE));

    Message again = message(messagesIn(DLQ).get(0).id());
    assertThat(again.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(
            Outcome.FAILED,
            Outcome.DEAD_LETTERED,
            Outcome.REDRIVEN,
            Outcome.FAILED,
            Outcome.DEAD_LETTERED);
  }

  @Test
  void redrive_readyMessagesInDeadLetterQueue_notMoved() {
    String ready = enqueue(DLQ);
    deadLetter();

    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ).withTo(OTHER));

    assertThat(result.count()).isEqualTo(1);
    assertThat(message(ready).queue()).isEqualTo(DLQ);
  }

  @Test
  void redrive_severalMessages_allMovedWithDistinctIds() {
    List<String> copies = List.of(deadLetter(), deadLetter(), deadLetter());

    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ));

    assertThat(result.moves())
        .extracting(RedriveResult.Move::deadLetterId)
        .containsExactlyInAnyOrderElementsOf(copies);
    assertThat(result.moves()).extracting(RedriveResult.Move::newId).doesNotHaveDuplicates();
    assertThat(stats(QUEUE).ready()).isEqualTo(3);
  }
}
