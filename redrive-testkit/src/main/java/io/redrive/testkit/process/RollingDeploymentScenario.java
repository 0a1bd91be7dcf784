package io.redrive.testkit.process;

import static io.redrive.testkit.process.Behaviour.COMPLETE;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.testkit.process.ResultLine.Step;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rolling deployment (seed 001): three worker runtimes share the database, two still run the old
 * code without a handler for type {@code v2}. They abandon a {@code v2} message with the
 * unregistered-handler backoff (an attempt each) instead of failing it, so it survives until they
 * are restarted with the new code and completes there, never poisoned. With the handler missing
 * everywhere it is poisoned after {@code maxAttempts}.
 *
 * <p>Runtimes are in-process workers on stores of their own (separate connection pools: separate
 * nodes), and in the last test child JVMs restarted for real. The new-code runtime that exists from
 * the start is kept busy with a long {@code v1} job, so that the message can only complete on an
 * upgraded runtime.
 */
@Timeout(90)
public abstract class RollingDeploymentScenario extends ProcessScenarioBase {
  private static final String QUEUE = "jobs";
  private static final String V1 = "v1";
  private static final String V2 = "v2";
  private static final int MAX_ATTEMPTS = 8;

  /** 50, 100, 200, 400, 400 … ms: the message is poisoned about 2.4 s after enqueue at worst. */
  private static final UnregisteredHandlerBackoff BACKOFF =
      new UnregisteredHandlerBackoff(Duration.ofMillis(50), 6, Duration.ofMillis(400));

  private final CountDownLatch busy = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseBusyNode() {
    release.countDown();
  }

  private void createQueue(int maxAttempts) {
    redrive.createQueue(
        QUEUE,
        QueuePolicy.defaults()
            .withLeaseTimeout(Duration.ofSeconds(5))
            .withMaxAttempts(maxAttempts));
  }

  /** A runtime: v1 always, v2 only with the new code; v2 completions are recorded. */
  private Worker runtime(String id, boolean newCode) {
    Worker.Builder b =
        worker(id, QUEUE)
            .leaseOnlyHandledTypes(false) // an old runtime leases every type and bounces v2
            .unregisteredBackoff(BACKOFF)
            .handler(V1, ctx -> HandlerResult.complete());
    if (newCode) {
      b.handler(
          V2,
          ctx -> {
            record(ctx);
            return HandlerResult.complete();
          });
    }
    return startWorker(b);
  }

  /**
   * The new-code runtime of the seed, its one slot taken by a long v1 job until the test ends. It
   * leases only its types, so it names v2: with it live, the old runtimes' abandons of v2 count
   * their attempts (docs/engine.md, "Live workers and unserved types").
   */
  private void startBusyNewRuntime() throws InterruptedException {
    startWorker(
        worker("node-3", QUEUE)
            .leaseOnlyHandledTypes(true)
            .concurrency(1)
            .unregisteredBackoff(BACKOFF)
            .handler(
                V1,
                ctx -> {
                  busy.countDown();
                  release.await();
                  return HandlerResult.complete();
                })
            .handler(
                V2,
                ctx -> {
                  record(ctx);
                  return HandlerResult.complete();
                }));
    enqueue(QUEUE, V1);
    assertThat(busy.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("node-3 busy").isTrue();
  }

  private long unregisteredAbandons(String id) {
    return steps(id).stream()
        .filter(
            s ->
                s.outcome() == Outcome.ABANDONED
                    && s.reason() == FailureReason.UNREGISTERED_HANDLER)
        .count();
  }

  @Test
  void rollingDeployment_oldRuntimesAbandonV2_untilRestartedWithIt_thenItCompletes()
      throws InterruptedException {
    createQueue(MAX_ATTEMPTS);
    startBusyNewRuntime();
    Worker old1 = runtime("node-1", false);
    Worker old2 = runtime("node-2", false);
    String id = enqueue(QUEUE, V2);
    eventually().until(() -> unregisteredAbandons(id) >= 2);

    assertThat(old1.stop(Duration.ofSeconds(5))).isTrue();
    runtime("node-1-v2", true);
    assertThat(old2.stop(Duration.ofSeconds(5))).isTrue();
    runtime("node-2-v2", true);

    eventually().until(() -> results().size() == 1);
    ResultLine done = results().get(0);
    assertThat(done.id()).isEqualTo(id);
    assertThat(done.worker()).isIn("node-1-v2", "node-2-v2");
    assertThat(done.attempt()).isBetween(3, MAX_ATTEMPTS);
    assertAbandonedByOldRuntimesThenLeased(done, Set.of("node-1", "node-2"));

    release.countDown();
    eventually().until(() -> redrive.stats(QUEUE).total() == 0);
  }

  /**
   * No live worker names v2 (every runtime leases every type and lacks it): each abandon is
   * refunded and waits the backoff's longest delay, so the message is never poisoned while the
   * deployment is incomplete, and the story shows every abandon.
   */
  @Test
  void handlerMissingEverywhere_abandonsRefundedWithLongestBackoff_neverPoisoned() {
    createQueue(MAX_ATTEMPTS);
    for (String node : List.of("node-1", "node-2", "node-3")) {
      // The refunded wait is the engine's longest unregistered backoff, so the nodes' engines get
      // the test's backoff too.
      Redrive engine = Redrive.builder(db.openStore()).unregisteredBackoff(BACKOFF).build();
      startWorker(
          Worker.builder(engine, QUEUE)
              .id(node)
              .pollInterval(Duration.ofMillis(20), Duration.ofMillis(100))
              .shutdownGrace(Duration.ofSeconds(1))
              .queueDepthInterval(Duration.ZERO)
              .leaseOnlyHandledTypes(false)
              .unregisteredBackoff(BACKOFF)
              .handler(V1, ctx -> HandlerResult.complete()));
    }
    String id = enqueue(QUEUE, V2);

    eventually().until(() -> unregisteredAbandons(id) > MAX_ATTEMPTS);
    Message waiting = message(id);
    assertThat(waiting.state()).isNotEqualTo(MessageState.DEAD);
    assertThat(waiting.attempts()).isLessThanOrEqualTo(1);
    List<HistoryEntry> history =
        waiting.history().stream().filter(e -> e.outcome() == Outcome.ABANDONED).toList();
    for (int i = 0; i < history.size(); i++) {
      HistoryEntry e = history.get(i);
      assertThat(e.attempt()).isEqualTo(1);
      assertThat(e.worker()).isIn("node-1", "node-2", "node-3");
      assertThat(e.failure().reason()).isEqualTo(FailureReason.UNREGISTERED_HANDLER);
      if (i > 0) {
        assertThat(e.leasedAt())
            .as("abandon %d waited the longest unregistered backoff", i + 1)
            .isAfterOrEqualTo(history.get(i - 1).settledAt().plus(BACKOFF.max()));
      }
    }
  }

  /**
   * The same deployment with real processes: the old runtimes are child JVMs, stopped with SIGTERM
   * and replaced by new JVMs that have the handler. Slower restarts, so a longer budget (10
   * deliveries, backoff up to 2 s: about 11 s before poison).
   */
  @Test
  void rollingDeploymentOfProcesses_oldChildrenReplacedByNewOnes_v2CompletesOnANewOne()
      throws InterruptedException {
    createQueue(10);
    startBusyNewRuntime();
    UnregisteredHandlerBackoff slower =
        new UnregisteredHandlerBackoff(Duration.ofMillis(100), 6, Duration.ofSeconds(2));
    WorkerSpec oldCode =
        WorkerSpec.of("old", QUEUE).handler(V1, COMPLETE).withUnregisteredBackoff(slower);
    WorkerSpec newCode = oldCode.handler(V2, COMPLETE);
    List<ChildWorker> old = startChildren(oldCode.withId("old-1"), oldCode.withId("old-2"));
    String id = enqueue(QUEUE, V2);
    eventually().until(() -> unregisteredAbandons(id) >= 2);

    assertThat(old.get(0).terminate(WAIT)).isEqualTo(143);
    startChild(newCode.withId("new-1"));
    assertThat(old.get(1).terminate(WAIT)).isEqualTo(143);
    startChild(newCode.withId("new-2"));

    eventually().until(() -> results().size() == 1);
    ResultLine done = results().get(0);
    assertThat(done.id()).isEqualTo(id);
    assertThat(done.worker()).isIn("new-1", "new-2");
    assertThat(done.attempt()).isBetween(3, 10);
    assertAbandonedByOldRuntimesThenLeased(done, Set.of("old-1", "old-2"));
  }

  private static void assertAbandonedByOldRuntimesThenLeased(ResultLine done, Set<String> old) {
    // An old runtime stopped gracefully while it held the lease gives it back unrun (RELEASED,
    // attempt refunded): allowed, and only from an old runtime.
    List<Step> released =
        done.history().stream().filter(s -> s.outcome() == Outcome.RELEASED).toList();
    assertThat(released).allSatisfy(s -> assertThat(s.worker()).isIn(old));
    List<Step> history =
        done.history().stream().filter(s -> s.outcome() != Outcome.RELEASED).toList();
    assertThat(history).as("history at completion").hasSize(done.attempt());
    for (int attempt = 1; attempt < done.attempt(); attempt++) {
      Step s = history.get(attempt - 1);
      assertThat(s.outcome())
          .as("delivery %d of %s", attempt, history)
          .isEqualTo(Outcome.ABANDONED);
      assertThat(s.attempt()).isEqualTo(attempt);
      assertThat(s.reason()).isEqualTo(FailureReason.UNREGISTERED_HANDLER);
      assertThat(s.worker()).isIn(old);
    }
    assertThat(history.get(done.attempt() - 1))
        .isEqualTo(new Step(Outcome.LEASED, done.attempt(), done.worker(), null));
  }
}
