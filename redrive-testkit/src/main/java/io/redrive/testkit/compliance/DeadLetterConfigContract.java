package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.ConflictException;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueUpdate;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Dead-letter queue references, validated on create, update and delete: the DLQ must exist, must
 * not be the queue itself, must not have a DLQ of its own, and a queue that is some queue's DLQ
 * cannot be given one or be deleted while referenced.
 *
 * <p>The engine refuses a self reference with {@link IllegalArgumentException}; the other checks
 * need the database and may be reported as {@link IllegalArgumentException} or {@link
 * ConflictException}, with a message naming both queues.
 */
public abstract class DeadLetterConfigContract extends ComplianceTestBase {
  private static final String DLQ2 = "orders.dlq2";

  private static AbstractThrowableAssert<?, ? extends Throwable> assertRefused(
      ThrowingCallable call, String queue, String deadLetterQueue) {
    return assertThatThrownBy(call)
        .isInstanceOfAny(IllegalArgumentException.class, ConflictException.class)
        .hasMessageContaining(queue)
        .hasMessageContaining(deadLetterQueue);
  }

  @Test
  void createQueue_deadLetterQueueMissing_refusedNamingBothQueues() {
    assertRefused(
        () -> createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ))), QUEUE, DLQ);

    assertThat(redrive.listQueues()).isEmpty();
  }

  @Test
  void createQueue_deadLetterQueueIsItself_refusedAsIllegalArgument() {
    assertThatThrownBy(
            () -> createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(QUEUE))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deadLetterQueue")
        .hasMessageContaining(QUEUE);

    assertThat(redrive.listQueues()).isEmpty();
  }

  @Test
  void createQueue_deadLetterQueueHasItsOwn_refusedNamingBothQueues() {
    createQueue(DLQ2);
    createQueue(DLQ, defaults().withDeadLetter(DeadLetter.moveTo(DLQ2)));

    assertRefused(
        () -> createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ))), QUEUE, DLQ);

    assertThat(redrive.listQueues()).extracting(Queue::name).containsExactlyInAnyOrder(DLQ, DLQ2);
  }

  @Test
  void createQueue_validDeadLetterQueue_accepted() {
    createQueue(DLQ);

    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));

    assertThat(redrive.getQueue(QUEUE).policy().deadLetter()).isEqualTo(DeadLetter.moveTo(DLQ));
  }

  @Test
  void createQueue_twoQueuesShareOneDeadLetterQueue_accepted() {
    createQueue(DLQ);

    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    createQueue(OTHER, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));

    assertThat(redrive.getQueue(OTHER).policy().deadLetter().queue()).isEqualTo(DLQ);
  }

  @Test
  void updateQueue_deadLetterQueueMissing_refusedAndPolicyUnchanged() {
    createQueue(QUEUE);

    assertRefused(
        () ->
            redrive.updateQueue(
                QUEUE, QueueUpdate.builder().deadLetter(DeadLetter.moveTo(DLQ)).build()),
        QUEUE,
        DLQ);

    assertThat(redrive.getQueue(QUEUE).policy()).isEqualTo(defaults());
  }

  @Test
  void updateQueue_deadLetterQueueIsItself_refusedAsIllegalArgument() {
    createQueue(QUEUE);

    assertThatThrownBy(
            () ->
                redrive.updateQueue(
                    QUEUE, QueueUpdate.builder().deadLetter(DeadLetter.moveTo(QUEUE)).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deadLetterQueue")
        .hasMessageContaining(QUEUE);

    assertThat(redrive.getQueue(QUEUE).policy()).isEqualTo(defaults());
  }

  @Test
  void updateQueue_deadLetterQueueHasItsOwn_refusedNamingBothQueues() {
    createQueue(DLQ2);
    createQueue(DLQ, defaults().withDeadLetter(DeadLetter.moveTo(DLQ2)));
    createQueue(QUEUE);

    assertRefused(
        () ->
            redrive.updateQueue(
                QUEUE, QueueUpdate.builder().deadLetter(DeadLetter.moveTo(DLQ)).build()),
        QUEUE,
        DLQ);

    assertThat(redrive.getQueue(QUEUE).policy()).isEqualTo(defaults());
  }

  @Test
  void updateQueue_giveDeadLetterQueueToAQueuesDeadLetterQueue_refusedNamingBothQueues() {
    createQueue(DLQ);
    createQueue(DLQ2);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));

    assertRefused(
        () ->
            redrive.updateQueue(
                DLQ, QueueUpdate.builder().deadLetter(DeadLetter.moveTo(DLQ2)).build()),
        DLQ,
        QUEUE);

    assertThat(redrive.getQueue(DLQ).policy()).isEqualTo(defaults());
  }

  @Test
  void updateQueue_deadLetterQueueOtherSetting_accepted() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));

    redrive.updateQueue(DLQ, QueueUpdate.builder().maxAttempts(2).build());

    assertThat(redrive.getQueue(DLQ).policy().maxAttempts()).isEqualTo(2);
  }

  @Test
  void deleteQueue_referencedDeadLetterQueue_refusedNamingBothQueues() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    String dead = enqueueAndKill(QUEUE);

    assertRefused(() -> redrive.deleteQueue(DLQ), DLQ, QUEUE);

    assertThat(redrive.listQueues()).extracting(Queue::name).containsExactlyInAnyOrder(DLQ, QUEUE);
    assertThat(messagesIn(DLQ)).extracting(m -> m.sourceId()).containsExactly(dead);
  }

  @Test
  void deleteQueue_deadLetterQueueNoLongerReferenced_succeeds() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    redrive.updateQueue(QUEUE, QueueUpdate.builder().deadLetter(DeadLetter.keep()).build());

    redrive.deleteQueue(DLQ);

    assertThat(redrive.listQueues()).extracting(Queue::name).containsExactly(QUEUE);
  }

  @Test
  void deleteQueue_queueWithDeadLetterQueue_succeedsAndKeepsDeadLetterQueue() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));

    redrive.deleteQueue(QUEUE);

    assertThat(redrive.listQueues()).extracting(Queue::name).containsExactly(DLQ);
  }
}
