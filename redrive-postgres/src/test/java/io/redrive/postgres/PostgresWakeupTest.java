package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.testkit.TestDatabase;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** NOTIFY from one node wakes an idle worker on another at once, long before its next poll. */
class PostgresWakeupTest {
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
