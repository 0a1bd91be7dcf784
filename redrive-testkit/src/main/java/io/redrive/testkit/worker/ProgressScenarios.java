package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.HandlerResult;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Partial completion: a step a handler marks done is recorded at once, so a later attempt skips it
 * — after a failure, and after the attempt's lease was lost with the handler still hanging.
 */
public abstract class ProgressScenarios extends WorkerScenarioBase {

  @Test
  void progress_stepDoneThenFailure_retrySkipsTheStep() {
    createQueue(fastPolicy());
    AtomicInteger chargeRuns = new AtomicInteger();
    AtomicInteger emailRuns = new AtomicInteger();
    List<Boolean> chargeDoneAtStart = new CopyOnWriteArrayList<>();
    String id = enqueue(TYPE);

    start(
        worker()
            .handler(
                TYPE,
                ctx -> {
                  chargeDoneAtStart.add(ctx.isStepDone(0));
                  if (!ctx.isStepDone(0)) {
                    chargeRuns.incrementAndGet();
                    ctx.markStepDone(0);
                  }
                  if (ctx.attempt() == 1) {
                    throw new IOException("mail server unreachable");
                  }
                  emailRuns.incrementAndGet();
                  ctx.markStepDone(1);
                  return HandlerResult.complete();
                }));

    awaitCompleted(id);
    assertThat(chargeDoneAtStart).containsExactly(false, true);
    assertThat(chargeRuns).hasValue(1);
    assertThat(emailRuns).hasValue(1);
  }

  @Test
  void progress_stepDoneThenLeaseLost_redeliverySkipsTheStep() {
    createQueue(
        QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(Duration.ofMillis(300)));
    AtomicInteger chargeRuns = new AtomicInteger();
    List<Boolean> chargeDoneAtStart = new CopyOnWriteArrayList<>();
    List<Integer> attempts = new CopyOnWriteArrayList<>();
    String id = enqueue(TYPE);

    start(
        worker()
            .concurrency(2)
            .maxRenewal(Duration.ofMillis(600))
            .handler(
                TYPE,
                ctx -> {
                  attempts.add(ctx.attempt());
                  chargeDoneAtStart.add(ctx.isStepDone(0));
                  if (!ctx.isStepDone(0)) {
                    chargeRuns.incrementAndGet();
                    ctx.markStepDone(0);
                  }
                  if (ctx.attempt() == 1) {
                    blockIgnoringInterrupts(); // hangs: the lease runs out after maxRenewal
                  }
                  // ends dead rather than completed so that the message keeps its story
                  return HandlerResult.deadNow(FailureReason.VALIDATION_FAILURE, "stop here");
                }));

    Message dead = awaitDead(id);
    assertThat(attempts).containsExactly(1, 2);
    assertThat(chargeDoneAtStart).containsExactly(false, true);
    assertThat(chargeRuns).hasValue(1);
    assertThat(dead.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(Outcome.LEASE_EXPIRED, Outcome.FAILED);
    assertThat(dead.progress()).isEqualTo(1L);
  }
}
