package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.ImportResult;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where dead messages go: kept in place, moved to the dead-letter queue (a new id, the content,
 * {@code sourceId}, {@code sourceQueue}, dead reason and history kept, attempts 0, source gone,
 * idempotent on {@code sourceId}) or discarded.
 */
public abstract class DeadLetterContract extends ComplianceTestBase {
  private static final String KEEP = "keep";
  private static final String DISCARD = "discard";

  @BeforeEach
  void createQueues() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    createQueue(KEEP);
    createQueue(DISCARD, defaults().withDeadLetter(DeadLetter.discard()));
  }

  private Message onlyMessageIn(String queue) {
    List<Message> messages = messagesIn(queue);
    assertThat(messages).as("messages in %s", queue).hasSize(1);
    return message(messages.get(0).id());
  }

  @Test
  void fail_deadWithDeadLetterQueue_movesCopyWithContentAndStory() {
    String id = enqueue(newMessage(QUEUE).headers(headers()).stream("customer-9").build());
    LeasedMessage first = leaseOne(QUEUE);
    redrive.fail(
        FailRequest.of(first.token(), FailureReason.HANDLER_EXCEPTION, "flaky")
            .withProgress(0b01)
            .withRetryAfter(Duration.ZERO));
    LeasedMessage second = leaseOne(QUEUE);
    Instant diedAt = advance(Duration.ofSeconds(2));

    SettleResult result =
        redrive.fail(
            FailRequest.of(second.token(), FailureReason.VALIDATION_FAILURE, "bad address")
                .withProgress(0b10));

    assertThat(result.state()).isEqualTo(MessageState.DEAD);
    assertThat(result.deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
    assertThat(result.deadLetterQueue()).isEqualTo(DLQ);
    assertThat(result.discarded()).isFalse();
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(stats(QUEUE).total()).isZero();

    Message copy = onlyMessageIn(DLQ);
    assertThat(copy.id()).isNotEqualTo(id);
    assertThat(copy.queue()).isEqualTo(DLQ);
    assertThat(copy.sourceId()).isEqualTo(id);
    assertThat(copy.sourceQueue()).isEqualTo(QUEUE);
    assertThat(copy.state()).isEqualTo(MessageState.DEAD);
    assertThat(copy.deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
    assertThat(copy.deadAt()).isEqualTo(diedAt);
    assertThat(copy.type()).isEqualTo(TYPE);
    assertThat(copy.payload()).isEqualTo(PAYLOAD);
    assertThat(copy.headers()).isEqualTo(headers());
    assertThat(copy.stream()).isEqualTo("customer-9");
    assertThat(copy.progress()).isEqualTo(0b11);
    assertThat(copy.attempts()).isZero();
    assertThat(copy.lastError().reason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
    assertThat(copy.lastError().message()).isEqualTo("bad address");
    assertThat(copy.lastError().attempt()).isEqualTo(2);
    assertThat(copy.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(Outcome.FAILED, Outcome.FAILED, Outcome.DEAD_LETTERED);
    assertThat(copy.history().get(0).failure().message()).isEqualTo("flaky");
  }

  @Test
  void deadLetterCopy_notLeasableFromDeadLetterQueue() {
    enqueueAndKill(QUEUE);

    assertNothingLeasable(DLQ);
    assertThat(stats(DLQ).dead()).isEqualTo(1);
  }

  @Test
  void deadLetterMove_oldTokenFindsNoLease() {
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    failPermanently(leased);

    assertThatThrownBy(() -> complete(leased)).isInstanceOf(LeaseNotFoundException.class);
    assertThat(stats(DLQ).dead()).isEqualTo(1);
  }

  @Test
  void deadLetterMove_dedupeKeyFreedInSourceQueue() {
    enqueueAndKill(newMessage(QUEUE).dedupeKey("k").build());

    assertThat(redrive.enqueue(newMessage(QUEUE).dedupeKey("k").build()).duplicate()).isFalse();
  }

  @Test
  void import_sourceIdAlreadyMovedIntoDeadLetterQueue_isDuplicateNoOp() {
    String id = enqueueAndKill(QUEUE);
    Message before = onlyMessageIn(DLQ);

    ImportResult result =
        redrive.importMessages(
            DLQ, List.of(new ImportMessage(id, QUEUE, TYPE, "{\"other\":true}", null, null, true)));

    assertThat(result.imported()).isEmpty();
    assertThat(result.duplicates()).containsExactly(id);
    assertThat(onlyMessageIn(DLQ)).isEqualTo(before);
  }

  @Test
  void deadLetterMove_severalMessages_eachMovedOnce() {
    List<String> ids = List.of(enqueueAndKill(QUEUE), enqueueAndKill(QUEUE), enqueueAndKill(QUEUE));

    assertThat(messagesIn(DLQ))
        .extracting(Message::sourceId)
        .containsExactlyInAnyOrderElementsOf(ids);
    assertThat(messagesIn(DLQ)).extracting(Message::id).doesNotHaveDuplicates();
  }

  @Test
  void keepMode_deadMessageStaysInPlaceWithItsId() {
    String id = enqueueAndKill(KEEP);

    Message m = message(id);
    assertThat(m.queue()).isEqualTo(KEEP);
    assertThat(m.state()).isEqualTo(MessageState.DEAD);
    assertThat(m.deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
    assertThat(m.deadAt()).isEqualTo(now());
    assertThat(m.sourceId()).isNull();
    assertThat(outcomes(id)).containsExactly(Outcome.FAILED);
    assertNothingLeasable(KEEP);
  }

  @Test
  void keepMode_settleResultNamesNoDeadLetterQueue() {
    enqueue(KEEP);

    SettleResult result = failPermanently(leaseOne(KEEP));

    assertThat(result.deadLetterQueue()).isNull();
    assertThat(result.discarded()).isFalse();
  }

  @Test
  void discardMode_deadMessageDeleted() {
    String id = enqueue(DISCARD);

    SettleResult result = failPermanently(leaseOne(DISCARD));

    assertThat(result.state()).isEqualTo(MessageState.DEAD);
    assertThat(result.discarded()).isTrue();
    assertThat(result.deadLetterQueue()).isNull();
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(stats(DISCARD).total()).isZero();
  }

  @Test
  void permanentFailureOnRetryableReason_deadLetteredNotDeleted() {
    String id = enqueue(QUEUE);

    redrive.fail(
        FailRequest.of(leaseOne(QUEUE).token(), FailureReason.DEPENDENCY_FAILURE, "gone")
            .withRetryable(false));

    assertThat(onlyMessageIn(DLQ).sourceId()).isEqualTo(id);
    assertThat(onlyMessageIn(DLQ).deadReason()).isEqualTo(FailureReason.DEPENDENCY_FAILURE);
  }
}
