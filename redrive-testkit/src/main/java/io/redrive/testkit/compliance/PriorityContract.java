package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueUpdate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Priorities: higher first, FIFO within a priority, the queue's default for a message without one,
 * and aging (a priority-p message is served as if it had become visible p × aging earlier, so a low
 * priority that has waited long enough beats fresh high ones). Streams keep their order.
 */
public abstract class PriorityContract extends ComplianceTestBase {
  private static final Duration AGING = Duration.ofMinutes(1);

  private String enqueueAt(int priority) {
    return enqueue(newMessage(QUEUE).priority(priority).build());
  }

  private List<String> leaseIds(int max) {
    return ids(lease(QUEUE, max));
  }

  @Test
  void lease_higherPriority_servedFirst() {
    createQueue(QUEUE);
    String low = enqueueAt(0);
    String middle = enqueueAt(4);
    String high = enqueueAt(9);

    LeasedMessage first = leaseOne(QUEUE);
    assertThat(first.id()).isEqualTo(high);
    assertThat(first.priority()).isEqualTo(9);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(middle);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(low);
  }

  @Test
  void lease_samePriority_fifo() {
    createQueue(QUEUE);
    String first = enqueueAt(5);
    advance(Duration.ofSeconds(10));
    String second = enqueueAt(5);
    String third = enqueueAt(5);

    assertThat(leaseIds(3)).containsExactly(first, second, third);
  }

  @Test
  void lease_batch_mixesPrioritiesInServeOrder() {
    createQueue(QUEUE);
    String low1 = enqueueAt(0);
    String mid1 = enqueueAt(5);
    String high = enqueueAt(9);
    String mid2 = enqueueAt(5);
    String low2 = enqueueAt(0);

    assertThat(leaseIds(10)).containsExactly(high, mid1, mid2, low1, low2);
  }

  @Test
  void enqueue_withoutPriority_takesQueueDefault() {
    createQueue(QUEUE, defaults().withPriority(new PriorityPolicy(5, AGING)));
    String explicitLow = enqueueAt(3);
    String byDefault = enqueue(QUEUE);
    String explicitZero = enqueueAt(0);

    assertThat(message(byDefault).priority()).isEqualTo(5);
    assertThat(message(explicitLow).priority()).isEqualTo(3);
    assertThat(message(explicitZero).priority()).isZero();
    assertThat(leaseIds(3)).containsExactly(byDefault, explicitLow, explicitZero);
  }

  @Test
  void enqueueBatch_mixedPriorities_eachKeepsItsOwn() {
    createQueue(QUEUE, defaults().withPriority(new PriorityPolicy(2, AGING)));
    List<String> ids =
        redrive
            .enqueueBatch(
                List.of(
                    newMessage(QUEUE).build(),
                    newMessage(QUEUE).priority(7).build(),
                    newMessage(QUEUE).priority(0).build()))
            .stream()
            .map(r -> r.id())
            .toList();

    assertThat(ids.stream().map(id -> message(id).priority())).containsExactly(2, 7, 0);
    assertThat(leaseIds(3)).containsExactly(ids.get(1), ids.get(0), ids.get(2));
  }

  @Test
  void lease_lowPriorityWaitedNineAgings_beatsFreshHighPriority() {
    createQueue(QUEUE, defaults().withPriority(new PriorityPolicy(0, AGING)));
    String old = enqueueAt(0);
    advance(AGING.multipliedBy(9).minus(MILLI));
    String fresh = enqueueAt(9);
    // Less than 9 × aging later, the fresh priority-9 message still goes first.
    assertThat(leaseOne(QUEUE).id()).isEqualTo(fresh);

    advance(MILLI.multipliedBy(2));
    String fresher = enqueueAt(9);

    assertThat(leaseIds(2)).containsExactly(old, fresher);
  }

  @Test
  void lease_middlePriorityAges_atItsOwnPace() {
    createQueue(QUEUE, defaults().withPriority(new PriorityPolicy(0, AGING)));
    String three = enqueueAt(3);
    advance(AGING.multipliedBy(3));
    // Priority 6 enqueued three agings later counts as visible at the same instant: seq decides.
    String six = enqueueAt(6);
    advance(MILLI);
    String sixLater = enqueueAt(6);

    assertThat(leaseIds(3)).containsExactly(three, six, sixLater);
  }

  @Test
  void fail_retriedHighPriority_keepsItsHeadStart() {
    createQueue(QUEUE, defaults().withPriority(new PriorityPolicy(0, AGING)));
    String high = enqueueAt(9);
    failRetryAfter(leaseOne(QUEUE), Duration.ofMinutes(2));
    String low = enqueueAt(0);
    advance(Duration.ofMinutes(2));

    // Back from its retry at t+2m, it counts as visible at t+2m-9m: before the low one.
    assertThat(leaseIds(2)).containsExactly(high, low);
    assertThat(message(high).priority()).isEqualTo(9);
  }

  @Test
  void lease_streamWithPriorities_streamOrderHolds() {
    createQueue(QUEUE);
    String head = enqueue(newMessage(QUEUE).stream("s").priority(0).build());
    String next = enqueue(newMessage(QUEUE).stream("s").priority(9).build());
    String loose = enqueueAt(5);

    // The priority-9 stream message waits behind its stream's head; the others go by priority.
    assertThat(leaseOne(QUEUE).id()).isEqualTo(loose);
    LeasedMessage first = leaseOne(QUEUE);
    assertThat(first.id()).isEqualTo(head);
    assertNothingLeasable(QUEUE);
    complete(first);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(next);
  }

  @Test
  void leaseBatch_streamWithPriorities_takesTheStreamInItsOrder() {
    createQueue(QUEUE);
    String head = enqueue(newMessage(QUEUE).stream("s").priority(0).build());
    String next = enqueue(newMessage(QUEUE).stream("s").priority(9).build());
    String loose = enqueueAt(5);

    // A batch may take a stream's next message after its head, never before it.
    assertThat(leaseIds(10)).containsExactly(loose, head, next);
  }

  @Test
  void enqueue_priorityOutOfRange_refusedNamingItAndNothingEnqueued() {
    createQueue(QUEUE);

    assertThatThrownBy(() -> enqueue(newMessage(QUEUE).priority(10).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("priority")
        .hasMessageContaining("10");
    assertThatThrownBy(() -> newMessage(QUEUE).priority(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("priority")
        .hasMessageContaining("-1");
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void queuePolicy_invalidPrioritySettings_refusedNamingTheOption() {
    assertThatThrownBy(() -> new PriorityPolicy(10, AGING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("defaultPriority")
        .hasMessageContaining("10");
    assertThatThrownBy(() -> new PriorityPolicy(0, Duration.ofMillis(500)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("priorityAging")
        .hasMessageContaining("500ms");
    assertThatThrownBy(() -> new PriorityPolicy(0, Duration.ofDays(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("priorityAging");
    assertThatThrownBy(() -> QueueUpdate.builder().defaultPriority(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("defaultPriority");
    assertThat(QueuePolicy.defaults().priority()).isEqualTo(PriorityPolicy.defaults());
    assertThat(PriorityPolicy.defaults()).isEqualTo(new PriorityPolicy(0, Duration.ofMinutes(1)));
  }

  @Test
  void updateQueue_prioritySettings_mergeAndApplyToLaterMessages() {
    createQueue(QUEUE, defaults().withPriority(new PriorityPolicy(0, AGING)));
    String before = enqueueAt(1);

    redrive.updateQueue(QUEUE, QueueUpdate.builder().defaultPriority(7).build());
    assertThat(redrive.getQueue(QUEUE).policy().priority()).isEqualTo(new PriorityPolicy(7, AGING));
    redrive.updateQueue(QUEUE, QueueUpdate.builder().priorityAging(Duration.ofHours(1)).build());
    assertThat(redrive.getQueue(QUEUE).policy().priority())
        .isEqualTo(new PriorityPolicy(7, Duration.ofHours(1)));
    assertThat(redrive.getQueue(QUEUE).policy().maxAttempts())
        .isEqualTo(QueuePolicy.DEFAULT_MAX_ATTEMPTS);

    // The earlier message keeps the head start it got (1 × 1m); the later one gets 1 × 1h.
    advance(Duration.ofMinutes(30));
    String after = enqueueAt(1);
    assertThat(leaseIds(2)).containsExactly(after, before);
  }

  @Test
  void deadLetterAndRedrive_keepThePriority() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueueAndKill(newMessage(QUEUE).priority(8).build());
    String copy =
        messagesIn(DLQ).stream()
            .filter(m -> id.equals(m.sourceId()))
            .findFirst()
            .orElseThrow()
            .id();
    assertThat(message(copy).priority()).isEqualTo(8);

    redrive.redrive(RedriveRequest.all(DLQ));
    String low = enqueueAt(0);

    assertThat(message(copy).priority()).isEqualTo(8);
    assertThat(leaseIds(2)).containsExactly(copy, low);
  }

  @Test
  void retry_deadInPlace_keepsThePriority() {
    createQueue(QUEUE);
    String id = enqueueAndKill(newMessage(QUEUE).priority(6).build());
    String low = enqueueAt(0);

    redrive.retry(id);

    assertThat(message(id).priority()).isEqualTo(6);
    assertThat(leaseIds(2)).containsExactly(id, low);
  }

  @Test
  void importMessages_takeTheQueueDefault() {
    createQueue(QUEUE, defaults().withPriority(new PriorityPolicy(4, AGING)));
    String imported =
        redrive
            .importMessages(
                QUEUE,
                List.of(new ImportMessage("legacy-1", null, TYPE, PAYLOAD, Map.of(), null, false)))
            .imported()
            .get(0);

    assertThat(message(imported).priority()).isEqualTo(4);
    assertThat(message(enqueueAt(2)).priority()).isEqualTo(2);
  }

  @Test
  void newMessage_withPriority_copiesEverythingElse() {
    NewMessage m = newMessage(QUEUE).stream("s").dedupeKey("k").build().withPriority(3);
    assertThat(m.priority()).isEqualTo(3);
    assertThat(m.stream()).isEqualTo("s");
    assertThat(m.dedupeKey()).isEqualTo("k");
    assertThat(newMessage(QUEUE).build().priority()).isNull();
  }
}
