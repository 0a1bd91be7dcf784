package io.redrive.testkit.process;

import static io.redrive.testkit.process.Behaviour.BLOCK;
import static io.redrive.testkit.process.Behaviour.COMPLETE;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.process.ResultLine.Step;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker process dies while its handler runs (promise 1, nothing is lost; promise 3, every
 * delivery counts): SIGKILL leaves its leases to expire, another process gets the messages with the
 * next attempt, and the history names the dead worker. A SIGTERM instead stops it gracefully and
 * gives the message back refunded.
 */
@Timeout(90)
public abstract class CrashRecoveryScenario extends ProcessScenarioBase {
  private static final String QUEUE = "jobs";
  private static final String SLOW = "slow";
  private static final Duration LEASE = Duration.ofSeconds(1);

  @BeforeEach
  void createQueue() {
    redrive.createQueue(QUEUE, QueuePolicy.defaults().withLeaseTimeout(LEASE).withMaxAttempts(5));
  }

  @Test
  void sigkilledWorker_leaseExpires_anotherWorkerCompletesAttemptTwo() {
    ChildWorker victim = startChild(WorkerSpec.of("victim", QUEUE).handler(SLOW, BLOCK));
    String id = enqueue(QUEUE, SLOW);
    assertThat(victim.awaitRunning(id, WAIT)).isEqualTo(1);

    List<Message> seen = new CopyOnWriteArrayList<>();
    startWorker(
        worker("survivor", QUEUE)
            .handler(
                SLOW,
                ctx -> {
                  seen.add(message(ctx.id()));
                  return HandlerResult.complete();
                }));
    // The victim renews its lease (every LEASE/3) while its handler runs: the survivor, polling
    // all along, does not get the message for twice the lease.
    eventually()
        .during(LEASE.multipliedBy(2))
        .until(() -> seen.isEmpty() && message(id).leasedBy().equals("victim"));

    Instant killedAt = Instant.now();
    assertThat(victim.kill()).as("exit status after SIGKILL").isEqualTo(137);

    eventually().until(() -> seen.size() == 1);
    eventually().until(() -> redrive.stats(QUEUE).total() == 0);
    Message atCompletion = seen.get(0);
    assertThat(atCompletion.attempts()).isEqualTo(2);
    assertThat(ResultLine.steps(atCompletion.history()))
        .containsExactly(
            new Step(Outcome.LEASE_EXPIRED, 1, "victim", FailureReason.LEASE_EXPIRED),
            new Step(Outcome.LEASED, 2, "survivor", null));
    HistoryEntry expired = atCompletion.history().get(0);
    assertThat(expired.failure().worker()).isEqualTo("victim");
    assertThat(expired.settledAt())
        .as("the lease ran out after the kill, not before (it was renewed until then)")
        .isAfter(killedAt);
    assertThat(atCompletion.history().get(1).leasedAt())
        .as("redelivered only once the lease ran out")
        .isAfterOrEqualTo(expired.settledAt());
  }

  @Test
  void sigkilledWorkerWithSeveralLeases_everyMessageCompletesInAnotherProcess() {
    ChildWorker victim =
        startChild(WorkerSpec.of("victim", QUEUE).withConcurrency(3).handler(SLOW, BLOCK));
    List<String> ids = enqueueMany(QUEUE, SLOW, 3);
    ids.forEach(id -> assertThat(victim.awaitRunning(id, WAIT)).isEqualTo(1));
    ChildWorker rescuer =
        startChild(WorkerSpec.of("rescuer", QUEUE).withConcurrency(3).handler(SLOW, COMPLETE));

    assertThat(victim.kill()).as("exit status after SIGKILL").isEqualTo(137);

    eventually().until(() -> results().size() == 3);
    eventually().until(() -> redrive.stats(QUEUE).total() == 0);
    assertThat(results()).extracting(ResultLine::id).containsExactlyInAnyOrderElementsOf(ids);
    for (ResultLine done : results()) {
      assertThat(done.attempt()).isEqualTo(2);
      assertThat(done.history())
          .as("history of %s", done.id())
          .containsExactly(
              new Step(Outcome.LEASE_EXPIRED, 1, "victim", FailureReason.LEASE_EXPIRED),
              new Step(Outcome.LEASED, 2, "rescuer", null));
    }
    assertThat(rescuer.ran()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(rescuer.closeInput(WAIT)).as("exit status after stdin closed").isZero();
    assertThat(rescuer.lines()).contains("STOPPED true");
  }

  @Test
  void sigtermedWorker_givesItsRunningMessageBackRefunded_andTheNextDeliveryIsAttemptOne() {
    ChildWorker leaver =
        startChild(
            WorkerSpec.of("leaver", QUEUE)
                .withShutdownGrace(Duration.ofMillis(300))
                .handler(SLOW, BLOCK));
    String id = enqueue(QUEUE, SLOW);
    assertThat(leaver.awaitRunning(id, WAIT)).isEqualTo(1);

    assertThat(leaver.terminate(WAIT)).as("exit status after SIGTERM").isEqualTo(143);
    assertThat(leaver.lines())
        .as("handler cut off at the grace deadline")
        .contains("STOPPED false");
    Message givenBack = message(id);
    assertThat(givenBack.state()).isEqualTo(MessageState.READY);
    assertThat(givenBack.attempts()).as("refunded").isZero();
    assertThat(ResultLine.steps(givenBack.history()))
        .containsExactly(new Step(Outcome.ABANDONED, 1, "leaver", null));

    List<Integer> attempts = new CopyOnWriteArrayList<>();
    startWorker(
        worker("next", QUEUE)
            .handler(
                SLOW,
                ctx -> {
                  attempts.add(ctx.attempt());
                  return HandlerResult.complete();
                }));
    eventually().until(() -> attempts.size() == 1);
    assertThat(attempts).containsExactly(1);
  }
}
