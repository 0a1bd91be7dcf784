package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.deadletter.DropFilter;
import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.ImportResult;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Operator drops (by id, by filter) and imports keyed by {@code sourceId}. */
public abstract class DropAndImportContract extends ComplianceTestBase {

  private static ImportMessage imported(String sourceId, boolean dead) {
    return new ImportMessage(sourceId, "legacy", TYPE, PAYLOAD, headers(), null, dead);
  }

  @Test
  void drop_byIdInAnyState_removesAndReportsNotFound() {
    createQueue(QUEUE);
    String dead = enqueueAndKill(QUEUE);
    String leased = enqueue(QUEUE);
    leaseOne(QUEUE);
    String scheduled = enqueue(newMessage(QUEUE).delay(Duration.ofHours(1)).build());
    String ready = enqueue(QUEUE);
    String missing = unknownId();

    DropResult result = redrive.drop(List.of(dead, leased, scheduled, ready, missing));

    assertThat(result.dropped()).containsExactlyInAnyOrder(dead, leased, scheduled, ready);
    assertThat(result.notFound()).containsExactly(missing);
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void drop_leasedMessage_holderFindsNoLease() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    redrive.drop(List.of(id));

    assertThatThrownBy(() -> complete(leased)).isInstanceOf(LeaseNotFoundException.class);
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
  }

  @Test
  void drop_otherQueuesUntouched() {
    createQueue(QUEUE);
    createQueue(OTHER);
    String a = enqueue(QUEUE);
    String b = enqueue(OTHER);

    redrive.drop(List.of(a));

    assertThat(message(b).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void dropMatching_deadOnly_leavesOtherStates() {
    createQueue(QUEUE);
    String dead1 = enqueueAndKill(QUEUE);
    String dead2 = enqueueAndKill(QUEUE);
    String ready = enqueue(QUEUE);

    DropResult result =
        redrive.dropMatching(new DropFilter(QUEUE, Set.of(MessageState.DEAD), null, null, 100));

    assertThat(result.dropped()).containsExactlyInAnyOrder(dead1, dead2);
    assertThat(messagesIn(QUEUE)).extracting(Message::id).containsExactly(ready);
  }

  @Test
  void dropMatching_noStates_neverDropsLeasedMessages() {
    createQueue(QUEUE);
    String leased = enqueue(QUEUE);
    leaseOne(QUEUE);
    String dead = enqueueAndKill(QUEUE);
    String scheduled = enqueue(newMessage(QUEUE).delay(Duration.ofHours(1)).build());
    String ready = enqueue(QUEUE);

    DropResult result = redrive.dropMatching(new DropFilter(QUEUE, null, null, null, 100));

    assertThat(result.dropped()).containsExactlyInAnyOrder(dead, scheduled, ready);
    assertThat(messagesIn(QUEUE)).extracting(Message::id).containsExactly(leased);
  }

  @Test
  void dropMatching_scheduledState_dropsOnlyNotYetVisible() {
    createQueue(QUEUE);
    String scheduled = enqueue(newMessage(QUEUE).delay(Duration.ofHours(1)).build());
    String ready = enqueue(QUEUE);

    DropResult result =
        redrive.dropMatching(
            new DropFilter(QUEUE, Set.of(MessageState.SCHEDULED), null, null, 100));

    assertThat(result.dropped()).containsExactly(scheduled);
    assertThat(message(ready).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void dropMatching_byTypeAndDeadReason_dropsOnlyMatching() {
    createQueue(QUEUE);
    String validation = enqueueAndKill(QUEUE);
    String handler = enqueue(QUEUE);
    redrive.fail(
        FailRequest.of(leaseOne(QUEUE).token(), FailureReason.HANDLER_EXCEPTION, "x")
            .withRetryable(false));
    String otherType = enqueueAndKill(messageOfType("charge-card"));

    DropResult byReason =
        redrive.dropMatching(
            new DropFilter(QUEUE, null, null, FailureReason.HANDLER_EXCEPTION, 100));
    DropResult byType = redrive.dropMatching(new DropFilter(QUEUE, null, "charge-card", null, 100));

    assertThat(byReason.dropped()).containsExactly(handler);
    assertThat(byType.dropped()).containsExactly(otherType);
    assertThat(messagesIn(QUEUE)).extracting(Message::id).containsExactly(validation);
  }

  private static NewMessage messageOfType(String type) {
    return NewMessage.builder(QUEUE, type).payload(PAYLOAD).build();
  }

  @Test
  void dropMatching_limit_dropsAtMostLimit() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 5);

    DropResult result = redrive.dropMatching(new DropFilter(QUEUE, null, null, null, 3));

    assertThat(result.dropped()).hasSize(3);
    assertThat(stats(QUEUE).total()).isEqualTo(2);
  }

  @Test
  void dropMatching_unknownQueue_throwsQueueNotFound() {
    assertThatThrownBy(() -> redrive.dropMatching(new DropFilter("nope", null, null, null, 10)))
        .isInstanceOf(QueueNotFoundException.class);
  }

  @Test
  void import_ready_storedWithSourceIdAndLeasable() {
    createQueue(QUEUE);

    ImportResult result = redrive.importMessages(QUEUE, List.of(imported("legacy-1", false)));

    assertThat(result.duplicates()).isEmpty();
    assertThat(result.imported()).hasSize(1);
    String id = result.imported().get(0);
    Message m = message(id);
    assertThat(m.id()).isNotEqualTo("legacy-1");
    assertThat(m.sourceId()).isEqualTo("legacy-1");
    assertThat(m.sourceQueue()).isEqualTo("legacy");
    assertThat(m.state()).isEqualTo(MessageState.READY);
    assertThat(m.attempts()).isZero();
    assertThat(m.type()).isEqualTo(TYPE);
    assertThat(m.payload()).isEqualTo(PAYLOAD);
    assertThat(m.headers()).isEqualTo(headers());
    assertThat(m.enqueuedAt()).isEqualTo(now());
    assertThat(outcomes(id)).containsExactly(Outcome.IMPORTED);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(id);
  }

  @Test
  void import_keepsAGivenPriorityAndLimitKey_elseTakesTheQueuesDefault() {
    createQueue(
        QUEUE,
        defaults().withPriority(io.redrive.queue.PriorityPolicy.defaults().withDefaultPriority(4)));
    ImportMessage plain = imported("legacy-1", false);
    ImportMessage urgent =
        new ImportMessage("legacy-2", "legacy", TYPE, PAYLOAD, headers(), null, false, 8, "t-9");

    List<String> ids = redrive.importMessages(QUEUE, List.of(plain, urgent)).imported();

    assertThat(message(ids.get(0)).priority()).isEqualTo(4);
    assertThat(message(ids.get(0)).limitKey()).isNull();
    assertThat(message(ids.get(1)).priority()).isEqualTo(8);
    assertThat(message(ids.get(1)).limitKey()).isEqualTo("t-9");
    assertThat(leaseOne(QUEUE).id()).as("the higher priority first").isEqualTo(ids.get(1));
  }

  @Test
  void import_badPriorityOrLimitKey_isRefusedNamingIt_andImportsNothing() {
    createQueue(QUEUE);
    ImportMessage fine = imported("legacy-1", false);
    ImportMessage tooHigh =
        new ImportMessage("legacy-2", null, TYPE, PAYLOAD, headers(), null, false, 10, null);
    ImportMessage blankKey =
        new ImportMessage("legacy-3", null, TYPE, PAYLOAD, headers(), null, false, null, " ");

    assertThatThrownBy(() -> redrive.importMessages(QUEUE, List.of(fine, tooHigh)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("messages[1].priority");
    assertThatThrownBy(() -> redrive.importMessages(QUEUE, List.of(fine, blankKey)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("messages[1].limitKey");
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void import_dead_storedDeadAndNotLeasable() {
    createQueue(QUEUE);

    String id =
        redrive.importMessages(QUEUE, List.of(imported("legacy-1", true))).imported().get(0);

    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
    assertThat(message(id).deadAt()).isNotNull();
    assertNothingLeasable(QUEUE);
    assertThat(redrive.retry(id).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void import_sameSourceIdTwice_secondIsDuplicateNoOp() {
    createQueue(QUEUE);
    String first =
        redrive.importMessages(QUEUE, List.of(imported("legacy-1", false))).imported().get(0);

    ImportResult second = redrive.importMessages(QUEUE, List.of(imported("legacy-1", false)));

    assertThat(second.imported()).isEmpty();
    assertThat(second.duplicates()).containsExactly("legacy-1");
    assertThat(messagesIn(QUEUE)).extracting(Message::id).containsExactly(first);
  }

  @Test
  void import_batchWithOneDuplicate_importsTheRest() {
    createQueue(QUEUE);
    redrive.importMessages(QUEUE, List.of(imported("legacy-1", false)));

    ImportResult result =
        redrive.importMessages(
            QUEUE,
            List.of(
                imported("legacy-1", false),
                imported("legacy-2", false),
                imported("legacy-3", true)));

    assertThat(result.duplicates()).containsExactly("legacy-1");
    assertThat(result.imported()).hasSize(2);
    assertThat(stats(QUEUE).total()).isEqualTo(3);
  }

  @Test
  void import_sameSourceIdInOtherQueue_notDuplicate() {
    createQueue(QUEUE);
    createQueue(OTHER);
    redrive.importMessages(QUEUE, List.of(imported("legacy-1", false)));

    ImportResult result = redrive.importMessages(OTHER, List.of(imported("legacy-1", false)));

    assertThat(result.imported()).hasSize(1);
  }

  @Test
  void import_unknownQueue_throwsQueueNotFound() {
    assertThatThrownBy(() -> redrive.importMessages("nope", List.of(imported("x", false))))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");
  }
}
