package io.redrive.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.TestDatabase;
import io.redrive.worker.HandlerRegistration;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkerSmokeTest {
  @Test
  void worker_runsHealthyFlakyPoisonAndHanging_messagesEndRight() {
    try (TestDatabase db = SqliteFixture.INSTANCE.newDatabase()) {
      Redrive redrive = Redrive.builder(db.openStore()).build();
      redrive.createQueue("dlq");
      redrive.createQueue(
          "q",
          QueuePolicy.defaults()
              .withRetry(3, Duration.ofMillis(50))
              .withLeaseTimeout(Duration.ofMillis(600))
              .withDeadLetter(DeadLetter.moveTo("dlq")));
      AtomicInteger flaky = new AtomicInteger();
      AtomicInteger ok = new AtomicInteger();
      Worker worker =
          Worker.builder(redrive, "q")
              .id("w1")
              .concurrency(8)
              .handler(
                  "ok",
                  ctx -> {
                    ok.incrementAndGet();
                    return HandlerResult.complete();
                  })
              .handler(
                  "flaky",
                  ctx -> {
                    if (flaky.incrementAndGet() < 3) throw new java.io.IOException("conn reset");
                    return HandlerResult.complete();
                  })
              .handler(
                  "bad",
                  ctx -> {
                    throw new IllegalStateException("bug");
                  })
              .handler(
                  HandlerRegistration.of(
                          "hang",
                          ctx -> {
                            while (true) {
                              Thread.sleep(10);
                            }
                          })
                      .withTimeout(Duration.ofMillis(200)))
              .build()
              .start();
      for (int i = 0; i < 20; i++) redrive.enqueue(NewMessage.builder("q", "ok").build());
      redrive.enqueue(NewMessage.builder("q", "flaky").build());
      redrive.enqueue(NewMessage.builder("q", "bad").build());
      redrive.enqueue(NewMessage.builder("q", "hang").build());
      redrive.enqueue(NewMessage.builder("q", "nobody").build());
      await().atMost(Duration.ofSeconds(20)).until(() -> redrive.stats("q").total() == 1);
      assertThat(ok.get()).isEqualTo(20);
      assertThat(flaky.get()).isEqualTo(3);
      var dlq = redrive.listMessages(io.redrive.message.MessageQuery.all("dlq")).messages();
      assertThat(dlq)
          .extracting(m -> m.type() + ":" + m.deadReason())
          .containsExactlyInAnyOrder("bad:HANDLER_EXCEPTION", "hang:TIMEOUT_EXCEEDED");
      var nobody = redrive.listMessages(io.redrive.message.MessageQuery.all("q")).messages().get(0);
      assertThat(nobody.type()).isEqualTo("nobody");
      assertThat(redrive.getMessage(nobody.id()).history().get(0).failure().reason())
          .isEqualTo(FailureReason.UNREGISTERED_HANDLER);
      assertThat(worker.stop(Duration.ofSeconds(5))).isTrue();
    }
  }
}
