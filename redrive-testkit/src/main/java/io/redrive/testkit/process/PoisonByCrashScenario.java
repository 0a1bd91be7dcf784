package io.redrive.testkit.process;

import static io.redrive.testkit.process.Behaviour.COMPLETE;
import static io.redrive.testkit.process.Behaviour.HALT;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.testkit.process.ResultLine.Step;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Poison that kills the worker (promise 4, poison never loops; promise 5, failures stay local): a
 * message whose handler halts the JVM is delivered {@code maxAttempts} times — each delivery ends
 * LEASE_EXPIRED with the killed worker's id — and then dead-lettered as POISON at fetch, while
 * healthy messages on the same queue all complete. Dead workers are replaced as a supervisor would.
 */
@Timeout(120)
public abstract class PoisonByCrashScenario extends ProcessScenarioBase {
  private static final String QUEUE = "jobs";
  private static final String OK = "ok";
  private static final String CRASH = "crash";
  private static final int MAX_ATTEMPTS = 3;
  private static final int HEALTHY = 30;

  private final List<String> healthy = new ArrayList<>();
  private String poison;

  @BeforeEach
  void fillQueue() {
    redrive.createQueue(
        QUEUE,
        QueuePolicy.defaults()
            .withLeaseTimeout(Duration.ofSeconds(1))
            .withMaxAttempts(MAX_ATTEMPTS));
    healthy.addAll(enqueueMany(QUEUE, OK, HEALTHY / 2));
    poison = enqueue(QUEUE, CRASH);
    healthy.addAll(enqueueMany(QUEUE, OK, HEALTHY / 2));
  }

  /** Children run one message at a time, so a crash takes no healthy message down with it. */
  private static WorkerSpec child() {
    return WorkerSpec.of("child", QUEUE).handler(OK, COMPLETE).handler(CRASH, HALT);
  }

  @Test
  void workerKillingMessage_poisonedAfterMaxAttempts_eachDeliveryEndedByItsDeadWorker() {
    List<ChildWorker> children =
        superviseUntil(child(), 2, () -> message(poison).state() == MessageState.DEAD);

    Map<Integer, ChildWorker> ranPoison = whoRanPoison(children);
    assertThat(ranPoison.keySet())
        .as("handler runs of the poison message (at most maxAttempts)")
        .containsExactly(1, 2, 3);
    ranPoison.values().forEach(c -> assertThat(c.awaitExit(WAIT)).as("%s", c).isEqualTo(137));
    Message dead = message(poison);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(dead.attempts()).isEqualTo(MAX_ATTEMPTS);
    assertThat(ResultLine.steps(dead.history()))
        .containsExactly(
            new Step(Outcome.LEASE_EXPIRED, 1, ranPoison.get(1).id(), FailureReason.LEASE_EXPIRED),
            new Step(Outcome.LEASE_EXPIRED, 2, ranPoison.get(2).id(), FailureReason.LEASE_EXPIRED),
            new Step(Outcome.LEASE_EXPIRED, 3, ranPoison.get(3).id(), FailureReason.LEASE_EXPIRED),
            new Step(Outcome.POISONED, MAX_ATTEMPTS + 1, null, FailureReason.POISON));

    eventually().until(() -> results().size() == HEALTHY);
    assertHealthyCompletedOnceAtFirstAttempt();
    assertThat(redrive.stats(QUEUE).total()).as("only the dead message is left").isOne();
    for (ChildWorker c : children) {
      if (!ranPoison.containsValue(c)) {
        assertThat(c.closeInput(WAIT)).as("%s stops cleanly", c).isZero();
      }
    }
  }

  /**
   * A healthy in-process worker that lacks the crashing type joins after the first crash: when it
   * leases the poison message it abandons it with the unregistered-handler backoff, which uses an
   * attempt too, so the budget of {@code maxAttempts} deliveries is shared between crashes and
   * abandons (which of the two takes each later delivery is a race, and either is fine).
   */
  @Test
  void mixedFleet_healthyInProcessWorkerAndCrashingChildren_budgetCountsEveryDelivery() {
    ChildWorker first = startChild(child().withId("child-1"));
    assertThat(first.awaitRunning(poison, WAIT)).isOne();
    // The children lease every type; a worker naming the crashing type is live too, so the healthy
    // worker's unregistered-handler abandons count (docs/engine.md, "Live workers and unserved
    // types"). The poison message is leased now, so this lease takes nothing.
    redrive.lease(
        io.redrive.lease.LeaseRequest.of(QUEUE, "names-crash", 1)
            .withTypes(java.util.Set.of(CRASH)));
    startWorker(
        worker("healthy", QUEUE)
            .leaseOnlyHandledTypes(false)
            .unregisteredBackoff(
                new UnregisteredHandlerBackoff(Duration.ofMillis(50), 6, Duration.ofMillis(400)))
            .handler(
                OK,
                ctx -> {
                  record(ctx);
                  return HandlerResult.complete();
                }));
    List<ChildWorker> children =
        superviseUntil(child(), List.of(first), () -> message(poison).state() == MessageState.DEAD);

    Map<Integer, ChildWorker> ranPoison = whoRanPoison(children);
    assertThat(ranPoison.get(1)).isSameAs(first);
    ranPoison.values().forEach(c -> assertThat(c.awaitExit(WAIT)).as("%s", c).isEqualTo(137));
    Message dead = message(poison);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.POISON);
    List<Step> steps = ResultLine.steps(dead.history());
    assertThat(steps).hasSize(MAX_ATTEMPTS + 1);
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      Step step = steps.get(attempt - 1);
      ChildWorker crashed = ranPoison.get(attempt);
      Step expected =
          crashed != null
              ? new Step(Outcome.LEASE_EXPIRED, attempt, crashed.id(), FailureReason.LEASE_EXPIRED)
              : new Step(Outcome.ABANDONED, attempt, "healthy", FailureReason.UNREGISTERED_HANDLER);
      assertThat(step).as("delivery %d of %s", attempt, steps).isEqualTo(expected);
    }
    assertThat(steps.get(MAX_ATTEMPTS))
        .isEqualTo(new Step(Outcome.POISONED, MAX_ATTEMPTS + 1, null, FailureReason.POISON));

    eventually().until(() -> results().size() == HEALTHY);
    assertHealthyCompletedOnceAtFirstAttempt();
  }

  /** Delivery number → the child whose handler ran the poison message then. */
  private Map<Integer, ChildWorker> whoRanPoison(List<ChildWorker> children) {
    Map<Integer, ChildWorker> out = new TreeMap<>();
    for (ChildWorker c : children) {
      for (String line : c.lines()) {
        String[] p = line.split(" ");
        if (p[0].equals("RUNNING") && p.length == 4 && p[2].equals(poison)) {
          ChildWorker before = out.put(Integer.parseInt(p[3]), c);
          assertThat(before).as("attempt %s delivered twice", p[3]).isNull();
        }
      }
    }
    return out;
  }

  private void assertHealthyCompletedOnceAtFirstAttempt() {
    List<ResultLine> done = results();
    assertThat(done).extracting(ResultLine::id).containsExactlyInAnyOrderElementsOf(healthy);
    assertThat(done).allSatisfy(r -> assertThat(r.attempt()).as("%s", r).isOne());
  }
}
