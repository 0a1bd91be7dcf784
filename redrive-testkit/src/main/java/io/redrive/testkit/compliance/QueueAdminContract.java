package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.ConflictException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.error.QueueNotFoundException;
import io.redrive.lease.LeasedMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueUpdate;
import io.redrive.queue.StreamPolicy;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Creating, reading, updating (merge), pausing and deleting queues. */
public abstract class QueueAdminContract extends ComplianceTestBase {

  @Test
  void createQueue_defaultPolicy_readsBackEqual() {
    Queue created = createQueue(QUEUE);

    Queue read = redrive.getQueue(QUEUE);
    assertThat(read.name()).isEqualTo(QUEUE);
    assertThat(read.policy()).isEqualTo(QueuePolicy.defaults());
    assertThat(read.paused()).isFalse();
    assertThat(read.createdAt()).isEqualTo(now());
    assertThat(created.policy()).isEqualTo(read.policy());
  }

  @Test
  void createQueue_everyPolicyField_readsBackEqual() {
    createQueue(DLQ);
    QueuePolicy exponential =
        new QueuePolicy(
            7,
            Duration.ofMillis(1500),
            new ExponentialBackoff(Duration.ofSeconds(10), 1.5, Duration.ofMinutes(7)),
            Duration.ofDays(2),
            DeadLetter.moveTo(DLQ),
            StreamPolicy.RELEASE);
    QueuePolicy fixed =
        QueuePolicy.defaults()
            .withRetry(3, Duration.ofSeconds(30))
            .withDeadLetter(DeadLetter.discard())
            .withStreamPolicy(StreamPolicy.HALT);

    createQueue(QUEUE, exponential);
    createQueue(OTHER, fixed);

    assertThat(redrive.getQueue(QUEUE).policy()).isEqualTo(exponential);
    assertThat(redrive.getQueue(OTHER).policy()).isEqualTo(fixed);
    assertThat(redrive.getQueue(OTHER).policy().backoff())
        .isEqualTo(new FixedBackoff(Duration.ofSeconds(30)));
  }

  @Test
  void createQueue_longestName_accepted() {
    String name = repeat('q', 200);

    createQueue(name);

    assertThat(redrive.getQueue(name).name()).isEqualTo(name);
  }

  @Test
  void createQueue_existingName_throwsQueueExistsAndKeepsOriginal() {
    createQueue(QUEUE, defaults().withMaxAttempts(3));

    assertThatThrownBy(() -> createQueue(QUEUE, defaults().withMaxAttempts(9)))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining(QUEUE)
        .satisfies(e -> assertThat(((ConflictException) e).code()).isEqualTo("QUEUE_EXISTS"));
    assertThat(redrive.getQueue(QUEUE).policy().maxAttempts()).isEqualTo(3);
  }

  @Test
  void listQueues_severalQueues_returnsEach() {
    createQueue(QUEUE);
    createQueue(OTHER);

    assertThat(redrive.listQueues())
        .extracting(Queue::name)
        .containsExactlyInAnyOrder(QUEUE, OTHER);
  }

  @Test
  void getQueue_unknown_throwsQueueNotFound() {
    assertThatThrownBy(() -> redrive.getQueue("nope"))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");
  }

  @Test
  void updateQueue_onlyMaxAttempts_keepsEveryOtherField() {
    createQueue(DLQ);
    QueuePolicy original =
        new QueuePolicy(
            5,
            Duration.ofSeconds(45),
            new ExponentialBackoff(Duration.ofSeconds(5), 3.0, Duration.ofMinutes(10)),
            Duration.ofHours(6),
            DeadLetter.moveTo(DLQ),
            StreamPolicy.HALT);
    createQueue(QUEUE, original);
    advance(Duration.ofMinutes(1));

    Queue updated = redrive.updateQueue(QUEUE, QueueUpdate.builder().maxAttempts(8).build());

    assertThat(updated.policy()).isEqualTo(original.withMaxAttempts(8));
    assertThat(redrive.getQueue(QUEUE).policy()).isEqualTo(original.withMaxAttempts(8));
    assertThat(redrive.getQueue(QUEUE).updatedAt()).isEqualTo(now());
  }

  @Test
  void updateQueue_severalFields_mergesThem() {
    createQueue(QUEUE);

    redrive.updateQueue(
        QUEUE,
        QueueUpdate.builder()
            .leaseTimeout(Duration.ofMinutes(2))
            .streamPolicy(StreamPolicy.RELEASE)
            .expireAfter(Duration.ofHours(1))
            .build());

    assertThat(redrive.getQueue(QUEUE).policy())
        .isEqualTo(
            QueuePolicy.defaults()
                .withLeaseTimeout(Duration.ofMinutes(2))
                .withStreamPolicy(StreamPolicy.RELEASE)
                .withExpireAfter(Duration.ofHours(1)));
  }

  @Test
  void updateQueue_clearExpireAfter_removesDeadline() {
    createQueue(QUEUE, defaults().withExpireAfter(Duration.ofHours(1)));

    redrive.updateQueue(QUEUE, QueueUpdate.builder().clearExpireAfter().build());

    assertThat(redrive.getQueue(QUEUE).policy().expireAfter()).isNull();
  }

  @Test
  void updateQueue_clearDeadLetterQueue_keepsDeadLettersInPlace() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)).withMaxAttempts(7));

    Queue updated =
        redrive.updateQueue(QUEUE, QueueUpdate.builder().clearDeadLetterQueue().build());

    assertThat(updated.policy().deadLetter()).isEqualTo(DeadLetter.keep());
    assertThat(updated.policy().maxAttempts()).isEqualTo(7);
    assertThat(redrive.getQueue(QUEUE).policy().deadLetter()).isEqualTo(DeadLetter.keep());
    String id = enqueueAndKill(QUEUE);
    assertThat(message(id).queue()).isEqualTo(QUEUE);
    redrive.deleteQueue(DLQ); // no longer referenced
  }

  @Test
  void updateQueue_clearDeadLetterQueueWithoutOne_leavesDiscardAlone() {
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.discard()));

    redrive.updateQueue(QUEUE, QueueUpdate.builder().clearDeadLetterQueue().build());

    assertThat(redrive.getQueue(QUEUE).policy().deadLetter()).isEqualTo(DeadLetter.discard());
  }

  @Test
  void updateQueue_clearDeadLetterQueueTogetherWithDeadLetter_refused() {
    assertThatThrownBy(
            () ->
                QueueUpdate.builder()
                    .clearDeadLetterQueue()
                    .deadLetter(DeadLetter.discard())
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("deadLetterQueue");
  }

  @Test
  void updateQueue_unknownQueue_throwsQueueNotFound() {
    assertThatThrownBy(
            () -> redrive.updateQueue("nope", QueueUpdate.builder().maxAttempts(2).build()))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");
    assertThat(redrive.listQueues()).isEmpty();
  }

  @Test
  void updateQueue_lowerMaxAttempts_appliesToQueuedMessages() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    redrive.updateQueue(QUEUE, QueueUpdate.builder().maxAttempts(2).build());

    assertThat(message(id).maxAttempts()).isEqualTo(2);
    assertThat(leaseOne(QUEUE).maxAttempts()).isEqualTo(2);
  }

  @Test
  void deleteQueue_withMessages_removesQueueAndMessages() {
    createQueue(QUEUE);
    createQueue(OTHER);
    String ready = enqueue(QUEUE);
    String leased = enqueue(QUEUE);
    String kept = enqueue(OTHER);
    lease(QUEUE, 2);

    redrive.deleteQueue(QUEUE);

    assertThat(redrive.listQueues()).extracting(Queue::name).containsExactly(OTHER);
    assertThatThrownBy(() -> message(ready)).isInstanceOf(MessageNotFoundException.class);
    assertThatThrownBy(() -> message(leased)).isInstanceOf(MessageNotFoundException.class);
    assertThat(message(kept).queue()).isEqualTo(OTHER);
  }

  @Test
  void deleteQueue_thenCreateAgain_startsEmpty() {
    createQueue(QUEUE);
    enqueue(QUEUE);

    redrive.deleteQueue(QUEUE);
    createQueue(QUEUE);

    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void deleteQueue_unknown_throwsQueueNotFound() {
    assertThatThrownBy(() -> redrive.deleteQueue("nope"))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");
  }

  @Test
  void pauseQueue_withReadyMessages_leaseReturnsNothingButEnqueueWorks() {
    createQueue(QUEUE);
    enqueue(QUEUE);

    Queue paused = redrive.pauseQueue(QUEUE);
    String enqueuedWhilePaused = enqueue(QUEUE);

    assertThat(paused.paused()).isTrue();
    assertThat(redrive.getQueue(QUEUE).paused()).isTrue();
    assertNothingLeasable(QUEUE);
    assertThat(stats(QUEUE).ready()).isEqualTo(2);
    assertThat(message(enqueuedWhilePaused).attempts()).isZero();
  }

  @Test
  void resumeQueue_afterPause_leasingResumes() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    redrive.pauseQueue(QUEUE);

    Queue resumed = redrive.resumeQueue(QUEUE);

    assertThat(resumed.paused()).isFalse();
    LeasedMessage leased = leaseOne(QUEUE);
    assertThat(leased.id()).isEqualTo(id);
    assertThat(leased.attempt()).isEqualTo(1);
  }

  @Test
  void pauseQueue_otherQueue_unaffected() {
    createQueue(QUEUE);
    createQueue(OTHER);
    enqueue(OTHER);

    redrive.pauseQueue(QUEUE);

    assertThat(leaseOne(OTHER).queue()).isEqualTo(OTHER);
  }

  @Test
  void pauseQueue_unknown_throwsQueueNotFound() {
    assertThatThrownBy(() -> redrive.pauseQueue("nope")).isInstanceOf(QueueNotFoundException.class);
    assertThatThrownBy(() -> redrive.resumeQueue("nope"))
        .isInstanceOf(QueueNotFoundException.class);
  }
}
