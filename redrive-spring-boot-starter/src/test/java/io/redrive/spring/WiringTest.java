package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.testkit.TestPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the starter wires without code: the application's MeterRegistry into the engine and the
 * workers, the per-queue worker settings, and a store of the application's own (whose enqueues then
 * do not join Spring's transactions).
 */
class WiringTest {
  @TempDir Path dir;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  /** Counts how many of its handlers run at once. */
  static class Exports {
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();
    final CountDownLatch done = new CountDownLatch(6);

    @RedriveHandler(queue = "exports", type = "csv")
    void csv() throws InterruptedException {
      int now = running.incrementAndGet();
      most.accumulateAndGet(now, Math::max);
      Thread.sleep(50);
      running.decrementAndGet();
      done.countDown();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class ExportsAndMeters {
    @Bean
    Exports exports() {
      return new Exports();
    }

    @Bean
    MeterRegistry meterRegistry() {
      return new SimpleMeterRegistry();
    }
  }

  @Test
  void theApplicationsMeterRegistry_getsTheEngineAndWorkerMeters() {
    runner()
        .withUserConfiguration(ExportsAndMeters.class)
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              redrive.enqueue(NewMessage.builder("exports", "csv").payload("{}").build());
              MeterRegistry meters = context.getBean(MeterRegistry.class);
              await()
                  .atMost(Duration.ofSeconds(20))
                  .until(
                      () -> {
                        var c =
                            meters
                                .find("redrive.messages.completed")
                                .tag("queue", "exports")
                                .counter();
                        return c != null && c.count() == 1;
                      });
              assertThat(meters.find("redrive.messages.enqueued").tag("queue", "exports").counter())
                  .isNotNull();
              assertThat(meters.getMeters())
                  .anySatisfy(m -> assertThat(m.getId().getName()).startsWith("redrive.worker."));
            });
  }

  @Test
  void oneQueuesWorkerSettings_applyToItsWorker() {
    runner()
        .withUserConfiguration(ExportsAndMeters.class)
        .withPropertyValues("redrive.worker.concurrency=8", "redrive.workers.exports.concurrency=1")
        .run(
            context -> {
              assertThat(mostAtOnceOfSix(context))
                  .as("handlers at once with concurrency 1")
                  .isOne();
            });
  }

  @Test
  void withoutPerQueueSettings_theSharedOnesApply() {
    runner()
        .withUserConfiguration(ExportsAndMeters.class)
        .withPropertyValues("redrive.worker.concurrency=6", "redrive.worker.batch-size=6")
        .run(
            context -> {
              assertThat(mostAtOnceOfSix(context)).as("more than one at once").isGreaterThan(1);
            });
  }

  /** Enqueues six exports, waits for all, and answers how many ran at once at most. */
  private static int mostAtOnceOfSix(ApplicationContext context) throws InterruptedException {
    Redrive redrive = context.getBean(Redrive.class);
    for (int i = 0; i < 6; i++) {
      redrive.enqueue(NewMessage.builder("exports", "csv").payload("{}").build());
    }
    Exports exports = context.getBean(Exports.class);
    assertThat(exports.done.await(30, TimeUnit.SECONDS)).isTrue();
    return exports.most.get();
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnStore {
    @Bean(destroyMethod = "close")
    Store store() {
      return SqliteStore.builder(
              Path.of(System.getProperty("java.io.tmpdir"))
                  .resolve("redrive-own-" + System.nanoTime() + ".db"))
          .build();
    }
  }

  @Test
  void aStoreOfTheApplicationsOwn_isUsed_andItsEnqueuesCommitOnTheirOwn() {
    String database = TestPostgres.createDatabase("springown");
    try {
      Runners.withTransactions(TestPostgres.urlForDatabase(database))
          .withUserConfiguration(OwnStore.class)
          .run(
              context -> {
                assertThat(context.getBean(Store.class)).isInstanceOf(SqliteStore.class);
                Redrive redrive = context.getBean(Redrive.class);
                redrive.declareQueue("q", io.redrive.queue.QueuePolicy.defaults());
                try {
                  new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                      .executeWithoutResult(
                          status -> {
                            redrive.enqueue(NewMessage.builder("q", "t").payload("{}").build());
                            throw new IllegalStateException("rolled back");
                          });
                } catch (IllegalStateException expected) {
                  // the application's transaction rolled back; the message is in another database
                }
                assertThat(redrive.stats("q").total()).isOne();
              });
    } finally {
      TestPostgres.dropDatabase(database);
    }
  }
}
