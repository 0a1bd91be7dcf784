package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageIds;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.CreateQueueParams;
import io.redrive.store.EnqueueParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * What a handler's return does to its message: a return completes; {@link HandlerResult#fail},
 * {@link HandlerResult#retryAfter} and {@link HandlerResult#deadNow} settle as they say. What a
 * throw does is {@link ClassificationScenarios}.
 */
public abstract class OutcomeScenarios extends WorkerScenarioBase {

  private void run(Handler handler) {
    start(worker().concurrency(2).handler(TYPE, handler));
  }

  @Test
  void handler_returnsComplete_messageCompletedOnFirstDelivery() {
    createQueue(fastPolicy());
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger attempt = new AtomicInteger();
    String id = enqueue(TYPE);

    run(
        ctx -> {
          calls.incrementAndGet();
          attempt.set(ctx.attempt());
          return HandlerResult.complete();
        });

    awaitCompleted(id);
    assertThat(calls).hasValue(1);
    assertThat(attempt).hasValue(1);
  }

  @Test
  void handler_returnsSlowDown_attemptRefunded_keyHeld_thenRunsAgain() {
    createQueue(fastPolicy());
    AtomicInteger calls = new AtomicInteger();
    List<Integer> attempts = new java.util.concurrent.CopyOnWriteArrayList<>();
    String id = enqueue(NewMessage.builder(QUEUE, TYPE).payload("{}").limitKey("tenant-7").build());

    run(
        ctx -> {
          attempts.add(ctx.attempt());
          return calls.incrementAndGet() == 1
              ? HandlerResult.slowDown(Duration.ofMillis(300))
              : HandlerResult.complete();
        });

    awaitCompleted(id);
    assertThat(attempts).containsExactly(1, 1);
  }

  @Test
  void handler_returnsCompleteWithResult_inAWorkflowOwnedQueue_itsInstanceGetsTheResult() {
    store.createQueue(new CreateQueueParams(QUEUE, fastPolicy(), true, redrive.clock().instant()));
    var workflows = (WorkflowStore) store;
    Instant now = redrive.clock().instant();
    workflows.startInstance(
        new StartInstanceParams(
            "order-1", "ship", null, "{}", null, StartInstanceParams.IfExists.FAIL, now));
    var turn =
        workflows.leaseTurn(new LeaseTurnParams("n", Duration.ofMinutes(1), 10, now)).orElseThrow();
    String id = MessageIds.next(redrive.clock());
    workflows.commitTurn(
        new CommitTurnParams(
            "order-1",
            turn.token(),
            new CommitTurnParams.InstanceUpdate(
                InstanceRow.Status.RUNNING, 1, "1", "{}", null, null, null),
            List.of(),
            List.of(),
            turn.batch().stream().map(InboxRow::seq).toList(),
            List.of(),
            List.of(),
            List.of(
                new CommitTurnParams.ActivityStart(
                    new EnqueueParams.Entry(
                        id, NewMessage.builder(QUEUE, TYPE).payload("{\"n\":2}").build()),
                    1,
                    TYPE,
                    0)),
            now));

    run(ctx -> HandlerResult.complete("{\"doubled\":4}"));

    Awaitility.await().atMost(AT_MOST).until(() -> !workflows.readInbox("order-1").isEmpty());
    assertThat(find(id)).as("the message ended").isEmpty();
    assertThat(workflows.readInbox("order-1"))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo("ACTIVITY_RESULT");
              assertThat(r.data()).contains("\"result\":{\"doubled\":4}");
            });
  }

  @Test
  void handler_returnsNull_messageCompleted() {
    createQueue(fastPolicy());
    String id = enqueue(TYPE);

    run(ctx -> null);

    awaitCompleted(id);
  }

  @Test
  void handler_returnsFail_retriedWithCooldownUntilAttemptsRunOutThenDead() {
    createQueue(fastPolicy());
    AtomicInteger calls = new AtomicInteger();
    String id = enqueue(TYPE);

    run(
        ctx -> {
          calls.incrementAndGet();
          return HandlerResult.fail(FailureReason.DEPENDENCY_FAILURE, "inventory down");
        });

    Message dead = awaitDead(id);
    assertThat(calls).hasValue(3);
    assertThat(dead.attempts()).isEqualTo(3);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.DEPENDENCY_FAILURE);
    assertThat(failedReasons(dead)).containsOnly(FailureReason.DEPENDENCY_FAILURE).hasSize(3);
    assertThat(entries(dead, Outcome.FAILED))
        .extracting(HistoryEntry::attempt)
        .containsExactly(1, 2, 3);
    assertThat(dead.lastError().message()).isEqualTo("inventory down");
    HistoryEntry first = entries(dead, Outcome.FAILED).get(0);
    HistoryEntry second = entries(dead, Outcome.FAILED).get(1);
    assertThat(Duration.between(first.settledAt(), second.leasedAt()))
        .isGreaterThanOrEqualTo(COOLDOWN);
  }

  @Test
  void handler_returnsFailWithNonRetryableReason_deadAtOnce() {
    createQueue(fastPolicy());
    String id = enqueue(TYPE);

    run(ctx -> HandlerResult.fail(FailureReason.VALIDATION_FAILURE, "no email address"));

    Message dead = awaitDead(id);
    assertThat(dead.attempts()).isEqualTo(1);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
    assertThat(dead.lastError().retryable()).isFalse();
  }

  @Test
  void handler_returnsDeadNow_deadAtOnceEvenWithRetryableReasonAndAttemptsLeft() {
    createQueue(fastPolicy());
    String id = enqueue(TYPE);

    run(ctx -> HandlerResult.deadNow(FailureReason.DEPENDENCY_FAILURE, "account closed"));

    Message dead = awaitDead(id);
    assertThat(dead.attempts()).isEqualTo(1);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.DEPENDENCY_FAILURE);
    assertThat(dead.lastError().retryable()).isFalse();
    assertThat(dead.lastError().message()).isEqualTo("account closed");
  }

  @Test
  void handler_returnsRetryAfter_overridesBackoffForThatAttempt() {
    // A 10-minute cooldown: only the retry-after can bring the message back within the test.
    createQueue(
        QueuePolicy.defaults().withRetry(3, Duration.ofMinutes(10)).withLeaseTimeout(LEASE));
    Duration retryAfter = Duration.ofMillis(700);
    String id = enqueue(TYPE);

    run(
        ctx ->
            ctx.attempt() == 1
                ? HandlerResult.retryAfter(retryAfter, "429 Too Many Requests")
                : HandlerResult.deadNow(FailureReason.VALIDATION_FAILURE, "stop here"));

    Message scheduled = awaitState(id, MessageState.SCHEDULED);
    HistoryEntry failed = last(scheduled);
    assertThat(failed.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(failed.failure().reason()).isEqualTo(FailureReason.DEPENDENCY_FAILURE);
    assertThat(failed.failure().retryable()).isTrue();
    assertThat(scheduled.visibleAt()).isEqualTo(failed.settledAt().plus(retryAfter));
    Message dead = awaitDead(id);
    HistoryEntry second = entries(dead, Outcome.FAILED).get(1);
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(second.leasedAt()).isAfterOrEqualTo(failed.settledAt().plus(retryAfter));
  }

  /**
   * A retry-after the engine refuses (beyond 365 days) is not settled, and its lease runs out; the
   * settles that shared its group commit are not held back by it.
   */
  @Test
  void handler_retryAfterBeyondTheLimit_onlyThatOneIsNotSettled() {
    createQueue(fastPolicy());
    List<String> ids = enqueueMany(TYPE, 10);
    String refused = ids.get(4);
    java.util.Map<String, AtomicInteger> runs = new java.util.concurrent.ConcurrentHashMap<>();

    start(
        worker()
            .concurrency(10)
            .batchSize(10)
            .handler(
                TYPE,
                ctx -> {
                  runs.computeIfAbsent(ctx.id(), k -> new AtomicInteger()).incrementAndGet();
                  return ctx.id().equals(refused) && ctx.attempt() == 1
                      ? HandlerResult.retryAfter(Duration.ofDays(400), "much later")
                      : HandlerResult.complete();
                }));

    awaitCompleted(ids);
    assertThat(runs.get(refused).get())
        .as("the refused one ran again after its lease")
        .isEqualTo(2);
    for (String id : ids) {
      if (!id.equals(refused)) {
        assertThat(runs.get(id).get()).as("runs of %s", id).isEqualTo(1);
      }
    }
  }

  @Test
  void handler_failsWithReasonOnlyRedriveAssigns_recordedAsHandlerException() {
    createQueue(fastPolicy().withMaxAttempts(1));
    String id = enqueue(TYPE);

    run(ctx -> HandlerResult.fail(FailureReason.POISON, "I am poison"));

    Message dead = awaitDead(id);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(failedReasons(dead)).containsExactly(FailureReason.HANDLER_EXCEPTION);
  }
}
