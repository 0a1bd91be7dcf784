package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Graceful shutdown: {@link Worker#stop(Duration)} stops leasing, lets running handlers finish
 * within the grace, gives back what was leased but not started (released, attempts refunded) and at
 * the deadline interrupts what still runs and gives it back refunded too.
 *
 * <p>Leased-but-unstarted messages are the later messages of a stream run: the worker leases at
 * most as many messages as it has free slots, and a stream's messages leased together share one
 * slot.
 */
public abstract class ShutdownScenarios extends WorkerScenarioBase {
  private static final String STREAM = "customer-1";

  private static QueuePolicy policy() {
    return QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(Duration.ofSeconds(5));
  }

  private List<String> enqueueStream(int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(enqueueInStream(TYPE, STREAM, "{\"n\":" + i + "}"));
    }
    return ids;
  }

  private void assertGivenBackRefunded(String id, Outcome how) {
    Message m = message(id);
    assertThat(m.state()).as("state of %s", id).isEqualTo(MessageState.READY);
    assertThat(m.attempts()).as("attempts of %s", id).isZero();
    HistoryEntry entry = last(m);
    assertThat(entry.outcome()).isEqualTo(how);
    assertThat(entry.attempt()).isEqualTo(1);
    assertThat(entry.note()).contains("refunded");
  }

  @Test
  void stop_runningHandlerFinishesWithinGrace_completesAndUnstartedStreamMessagesReleased() {
    createQueue(policy());
    List<String> ids = enqueueStream(4);
    List<String> started = new CopyOnWriteArrayList<>();
    CountDownLatch headRunning = new CountDownLatch(1);

    Worker worker =
        start(
            worker()
                .concurrency(4)
                .batchSize(5)
                .handler(
                    TYPE,
                    ctx -> {
                      started.add(ctx.id());
                      headRunning.countDown();
                      Thread.sleep(700); // still running when stop() is called
                      return HandlerResult.complete();
                    }));
    eventually().until(() -> headRunning.getCount() == 0);
    for (String id : ids) {
      assertThat(message(id).state()).as("state of %s", id).isEqualTo(MessageState.LEASED);
    }

    boolean clean = worker.stop(Duration.ofSeconds(5));

    assertThat(clean).isTrue();
    assertThat(started).containsExactly(ids.get(0));
    assertThat(isCompleted(ids.get(0))).isTrue();
    for (String id : ids.subList(1, ids.size())) {
      assertGivenBackRefunded(id, Outcome.RELEASED);
      assertThat(outcomes(id)).containsExactly(Outcome.RELEASED);
    }
  }

  @Test
  void stop_handlerExceedsGrace_interruptedAndGivenBackRefunded() {
    createQueue(policy());
    String id = enqueue(TYPE);
    CountDownLatch running = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();

    Worker worker =
        start(
            worker()
                .concurrency(1)
                .batchSize(5)
                .handler(
                    TYPE,
                    ctx -> {
                      running.countDown();
                      try {
                        while (true) {
                          Thread.sleep(10);
                        }
                      } catch (InterruptedException e) {
                        interrupted.set(true);
                        throw e;
                      }
                    }));
    eventually().until(() -> running.getCount() == 0);

    boolean clean = worker.stop(Duration.ofMillis(300));

    assertThat(clean).isFalse();
    eventually().untilTrue(interrupted);
    assertGivenBackRefunded(id, Outcome.ABANDONED);
    assertThat(last(message(id)).note()).contains("shut down");
    assertThat(outcomes(id)).containsExactly(Outcome.ABANDONED);
  }

  @Test
  void stop_streamHeadExceedsGrace_headAbandonedAndRestReleasedAllRefunded() {
    createQueue(policy());
    List<String> ids = enqueueStream(3);
    CountDownLatch running = new CountDownLatch(1);
    List<String> started = new CopyOnWriteArrayList<>();

    Worker worker =
        start(
            worker()
                .concurrency(4)
                .handler(
                    TYPE,
                    ctx -> {
                      started.add(ctx.id());
                      running.countDown();
                      while (!ctx.isCancelled()) {
                        Thread.onSpinWait();
                      }
                      return HandlerResult.complete();
                    }));
    eventually().until(() -> running.getCount() == 0);

    boolean clean = worker.stop(Duration.ofMillis(300));

    assertThat(clean).isFalse();
    assertThat(started).containsExactly(ids.get(0));
    assertGivenBackRefunded(ids.get(0), Outcome.ABANDONED);
    assertGivenBackRefunded(ids.get(1), Outcome.RELEASED);
    assertGivenBackRefunded(ids.get(2), Outcome.RELEASED);
  }
}
