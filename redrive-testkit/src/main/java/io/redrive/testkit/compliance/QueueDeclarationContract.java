package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueDeclaration;
import io.redrive.queue.QueueDeclaration.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueUpdate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@code declareQueue}: create or merge, idempotent, run by every node on every boot, at the same
 * time on several nodes.
 */
public abstract class QueueDeclarationContract extends ComplianceTestBase {

  @Test
  void declare_missingQueue_createsItWithThePolicy() {
    QueuePolicy policy = QueuePolicy.defaults().withMaxAttempts(3);

    QueueDeclaration d = redrive.declareQueue(QUEUE, policy);

    assertThat(d.outcome()).isEqualTo(Outcome.CREATED);
    assertThat(redrive.getQueue(QUEUE).policy()).isEqualTo(policy);
  }

  @Test
  void declare_sameAgain_unchangedAndNothingWritten() {
    QueuePolicy policy = QueuePolicy.defaults().withMaxAttempts(3);
    redrive.declareQueue(QUEUE, policy);
    Queue before = redrive.getQueue(QUEUE);
    advance(Duration.ofMinutes(1));

    QueueDeclaration d = redrive.declareQueue(QUEUE, policy);

    assertThat(d.outcome()).isEqualTo(Outcome.UNCHANGED);
    assertThat(redrive.getQueue(QUEUE)).isEqualTo(before);
  }

  @Test
  void declare_fullPolicyOnExistingQueue_replacesEveryFieldKeepsPausedAndMessages() {
    createQueue(DLQ);
    redrive.createQueue(
        QUEUE,
        QueuePolicy.defaults()
            .withMaxAttempts(9)
            .withExpireAfter(Duration.ofHours(1))
            .withDeadLetter(DeadLetter.moveTo(DLQ)));
    redrive.pauseQueue(QUEUE);
    String id = enqueue(QUEUE);

    QueueDeclaration d = redrive.declareQueue(QUEUE, QueuePolicy.defaults().withMaxAttempts(2));

    assertThat(d.outcome()).isEqualTo(Outcome.UPDATED);
    assertThat(d.queue().policy()).isEqualTo(QueuePolicy.defaults().withMaxAttempts(2));
    assertThat(redrive.getQueue(QUEUE).paused()).isTrue();
    assertThat(message(id).queue()).isEqualTo(QUEUE);
  }

  @Test
  void declare_partialUpdateOnExistingQueue_mergesOnlyTheNamedFields() {
    redrive.createQueue(
        QUEUE, QueuePolicy.defaults().withMaxAttempts(9).withExpireAfter(Duration.ofHours(1)));

    QueueDeclaration d =
        redrive.declareQueue(
            QUEUE, QueueUpdate.builder().leaseTimeout(Duration.ofMinutes(2)).build());

    assertThat(d.outcome()).isEqualTo(Outcome.UPDATED);
    assertThat(d.queue().policy().maxAttempts()).isEqualTo(9);
    assertThat(d.queue().policy().expireAfter()).isEqualTo(Duration.ofHours(1));
    assertThat(d.queue().policy().leaseTimeout()).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void declare_invalid_refusedAndNothingChanged() {
    assertThatThrownBy(
            () ->
                redrive.declareQueue(
                    QUEUE, QueuePolicy.defaults().withDeadLetter(DeadLetter.moveTo("missing"))))
        .hasMessageContaining("missing");
    assertThat(store.findQueue(QUEUE)).isEmpty();
    assertThatThrownBy(() -> redrive.declareQueue("bad name!", QueuePolicy.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("name: ");
  }

  @Test
  void declare_manyNodesAtOnce_oneCreatesTheRestAgree() throws Exception {
    int nodes = 6;
    List<Redrive> engines = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      engines.add(Redrive.builder(i == 0 ? store : db.openStore()).clock(clock).build());
    }
    QueuePolicy policy = QueuePolicy.defaults().withMaxAttempts(4);
    for (int round = 0; round < 5; round++) {
      String name = QUEUE + "-" + round;
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(nodes);
      try {
        List<Future<QueueDeclaration>> results = new ArrayList<>();
        for (Redrive engine : engines) {
          results.add(
              pool.submit(
                  () -> {
                    start.await();
                    return engine.declareQueue(name, policy);
                  }));
        }
        start.countDown();
        List<Outcome> outcomes = new ArrayList<>();
        for (Future<QueueDeclaration> f : results) {
          outcomes.add(f.get().outcome());
        }
        assertThat(outcomes).as("round %d", round).containsOnlyOnce(Outcome.CREATED);
        assertThat(outcomes).doesNotContain(Outcome.UPDATED);
      } finally {
        pool.shutdownNow();
      }
      assertThat(redrive.getQueue(name).policy()).isEqualTo(policy);
    }
  }
}
