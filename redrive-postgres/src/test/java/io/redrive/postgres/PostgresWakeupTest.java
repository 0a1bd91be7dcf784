package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.store.ReadySubscription;
import io.redrive.store.workflow.RaiseEventParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.testkit.TestDatabase;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * NOTIFY from one node wakes an idle worker on another at once, long before its next poll; a node
 * does not wake its own subscribers a second time on the echo of its own notify.
 */
class PostgresWakeupTest {
  @Test
  void payload_namesTheQueueAndTheSender_andOnlyOthersSignalsCount() {
    String payload = ReadyNotifier.payload("orders.v2-eu_1", "a1b2");

    assertThat(ReadyNotifier.queueToSignal(payload, "ffff")).isEqualTo("orders.v2-eu_1");
    assertThat(ReadyNotifier.queueToSignal(payload, "a1b2")).as("own echo").isNull();
    assertThat(ReadyNotifier.queueToSignal("orders", "a1b2")).as("untagged").isEqualTo("orders");
  }

  @Test
  void enqueue_signalsOwnSubscribersOnce_andOtherNodesSubscribersByNotify() throws Exception {
    try (TestDatabase db = PostgresFixture.INSTANCE.newDatabase()) {
      Redrive a = Redrive.builder(db.openStore()).build();
      Redrive b = Redrive.builder(db.openStore()).build();
      Redrive c = Redrive.builder(db.openStore()).build();
      a.createQueue("q");
      AtomicInteger onA = new AtomicInteger();
      AtomicInteger onB = new AtomicInteger();
      try (ReadySubscription sa = a.subscribeReady("q", onA::incrementAndGet);
          ReadySubscription sb = b.subscribeReady("q", onB::incrementAndGet)) {
        // Both listeners are up once a third node's enqueue reaches both.
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () -> {
                  c.enqueue(NewMessage.builder("q", "t").build());
                  return onA.get() > 0 && onB.get() > 0;
                });
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        onA.set(0);
        onB.set(0);

        a.enqueue(NewMessage.builder("q", "t").build());

        await().atMost(Duration.ofSeconds(10)).until(() -> onB.get() == 1);
        // B has the notify, so A's listener has had its echo too: it must not have signalled.
        await()
            .during(Duration.ofMillis(500))
            .atMost(Duration.ofSeconds(2))
            .until(() -> onA.get() == 1);
      }
    }
  }

  @Test
  void workflowWrites_onOneNode_wakeAnotherNodesTurnSubscribers() throws Exception {
    try (TestDatabase db = PostgresFixture.INSTANCE.newDatabase()) {
      WorkflowStore a = (WorkflowStore) db.openStore();
      WorkflowStore b = (WorkflowStore) db.openStore();
      AtomicInteger onB = new AtomicInteger();
      try (ReadySubscription sb = b.subscribeTurns(onB::incrementAndGet)) {
        // B's listener is up once one of A's starts reaches it.
        AtomicInteger n = new AtomicInteger();
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () -> {
                  a.startInstance(
                      new StartInstanceParams(
                          "warm-" + n.incrementAndGet(),
                          "flow",
                          null,
                          null,
                          null,
                          StartInstanceParams.IfExists.FAIL,
                          Instant.now()));
                  return onB.get() > 0;
                });
        int before = onB.get();

        a.raiseEvent(new RaiseEventParams("warm-1", "go", "{}", null, Instant.now()));

        await().atMost(Duration.ofSeconds(10)).until(() -> onB.get() > before);
      }
    }
  }

  @Test
  void turnsAnnouncedByACommit_wakeOwnTurnSubscribersOnceAfterIt_andOtherNodesByOneNotify()
      throws Exception {
    try (TestDatabase db = PostgresFixture.INSTANCE.newDatabase()) {
      WorkflowStore a = (WorkflowStore) db.openStore();
      WorkflowStore b = (WorkflowStore) db.openStore();
      AtomicInteger onA = new AtomicInteger();
      AtomicInteger onB = new AtomicInteger();
      try (ReadySubscription sa = a.subscribeTurns(onA::incrementAndGet);
          ReadySubscription sb = b.subscribeTurns(onB::incrementAndGet)) {
        untilListening(a, onB);
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        onA.set(0);
        onB.set(0);

        a.startInstance(start("one"));

        await().atMost(Duration.ofSeconds(10)).until(() -> onB.get() == 1);
        // Told after the commit only: not also before it, nor again on the echo of A's notify.
        await()
            .during(Duration.ofMillis(500))
            .atMost(Duration.ofSeconds(2))
            .until(() -> onA.get() == 1 && onB.get() == 1);
      }
    }
  }

  @Test
  void startInCallersTransaction_wakesOtherNodesAtItsCommit_neverOnARollback() throws Exception {
    try (TestDatabase db = PostgresFixture.INSTANCE.newDatabase();
        Connection app = db.connect()) {
      WorkflowStore a = (WorkflowStore) db.openStore();
      WorkflowStore b = (WorkflowStore) db.openStore();
      AtomicInteger onB = new AtomicInteger();
      try (ReadySubscription sb = b.subscribeTurns(onB::incrementAndGet)) {
        untilListening(a, onB);
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        onB.set(0);
        app.setAutoCommit(false);

        a.startInstance(app, start("rolled-back"));
        app.rollback();
        await()
            .during(Duration.ofMillis(500))
            .atMost(Duration.ofSeconds(2))
            .until(() -> onB.get() == 0);

        a.startInstance(app, start("committed"));
        await()
            .during(Duration.ofMillis(300))
            .atMost(Duration.ofSeconds(2))
            .until(() -> onB.get() == 0);
        app.commit();
        await().atMost(Duration.ofSeconds(10)).until(() -> onB.get() == 1);
      }
    }
  }

  @Test
  void readyMarksOfSeveralQueues_reachOtherNodesSubscribersOfEach() throws Exception {
    try (TestDatabase db = PostgresFixture.INSTANCE.newDatabase()) {
      Redrive a = Redrive.builder(db.openStore()).build();
      Redrive b = Redrive.builder(db.openStore()).build();
      a.createQueue("q1");
      a.createQueue("q2");
      AtomicInteger onQ1 = new AtomicInteger();
      AtomicInteger onQ2 = new AtomicInteger();
      try (ReadySubscription s1 = b.subscribeReady("q1", onQ1::incrementAndGet);
          ReadySubscription s2 = b.subscribeReady("q2", onQ2::incrementAndGet)) {
        // One enqueue into both queues: the notifier sends the marks it holds in one statement.
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () -> {
                  a.enqueueBatch(
                      List.of(
                          NewMessage.builder("q1", "t").build(),
                          NewMessage.builder("q2", "t").build()));
                  return onQ1.get() > 0 && onQ2.get() > 0;
                });
      }
    }
  }

  /** Starts instances on {@code a} until one reaches the other node's counter: it listens. */
  private static void untilListening(WorkflowStore a, AtomicInteger onOtherNode) {
    AtomicInteger n = new AtomicInteger();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              a.startInstance(start("warm-" + n.incrementAndGet()));
              return onOtherNode.get() > 0;
            });
  }

  private static StartInstanceParams start(String id) {
    return new StartInstanceParams(
        id, "flow", null, null, null, StartInstanceParams.IfExists.FAIL, Instant.now());
  }

  @Test
  void enqueueOnOtherNode_wakesIdleWorker_beforeItsNextPoll() throws Exception {
    try (TestDatabase db = PostgresFixture.INSTANCE.newDatabase()) {
      Redrive producer = Redrive.builder(db.openStore()).build();
      Redrive consumer = Redrive.builder(db.openStore()).build();
      producer.createQueue("q");
      CountDownLatch ran = new CountDownLatch(1);
      Worker worker =
          Worker.builder(consumer, "q")
              .id("listener")
              .pollInterval(Duration.ofSeconds(30), Duration.ofSeconds(30))
              .queueDepthInterval(Duration.ZERO)
              .handler(
                  "t",
                  ctx -> {
                    ran.countDown();
                    return HandlerResult.complete();
                  })
              .build()
              .start();
      try {
        // The worker's first (empty) poll happens at start; wait until it is asleep.
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.stats("q").total() == 0);
        Thread.yield();
        producer.enqueue(NewMessage.builder("q", "t").build());
        assertThat(ran.await(10, TimeUnit.SECONDS)).as("woken by NOTIFY").isTrue();
      } finally {
        worker.stop(Duration.ofSeconds(5));
      }
    }
  }
}
