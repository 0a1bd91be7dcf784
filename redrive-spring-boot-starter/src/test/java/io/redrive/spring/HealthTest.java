package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.store.Store;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Redrive's Actuator health: UP with per-queue details; DOWN without the store or its workers. The
 * indicator is read by reflection because its Actuator types differ between Spring Boot 3 and 4,
 * and these tests run on both.
 */
class HealthTest {
  @TempDir Path dir;

  /** A handler of a queue the tests only fill: its worker runs, nothing here waits for it. */
  static class Reports {
    @RedriveHandler(queue = "reports", type = "build")
    void build() {}
  }

  @Configuration(proxyBeanMethods = false)
  static class ReportsConfig {
    @Bean
    Reports reports() {
      return new Reports();
    }
  }

  /** What the indicator answered: Actuator's status code and details. */
  record Seen(String status, Map<String, Object> details) {
    @SuppressWarnings("unchecked")
    Map<String, Object> queue(String name) {
      return (Map<String, Object>) ((Map<String, Object>) details.get("queues")).get(name);
    }

    /** The queue's ready, leased and dead messages together, as the details show them. */
    long messages(String name) {
      Map<String, Object> q = queue(name);
      return (Long) q.get("ready") + (Long) q.get("leased") + (Long) q.get("dead");
    }
  }

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withUserConfiguration(ReportsConfig.class)
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  @Test
  void up_withEachHandlerQueuesDetails() {
    runner()
        .run(
            context -> {
              Seen health = health(context);
              assertThat(health.status()).isEqualTo("UP");
              assertThat(health.details())
                  .containsEntry("store", "reachable")
                  .containsEntry("migrations", "current at start (applied)")
                  .containsEntry("workers", "running")
                  .containsKey("queuesReadAgo");
              @SuppressWarnings("unchecked")
              Map<String, Object> queues = (Map<String, Object>) health.details().get("queues");
              assertThat(queues).containsOnlyKeys("reports");
              assertThat(health.queue("reports"))
                  .containsKeys("worker", "inFlight", "ready", "leased", "dead", "oldestReadyAge");
            });
  }

  @Test
  void queueDetails_readAtMostOncePerInterval() {
    runner()
        .withPropertyValues("redrive.health.details-interval=1h")
        .run(
            context -> {
              assertThat(health(context).messages("reports")).isZero();
              context.getBean(Redrive.class).enqueue(message());
              assertThat(health(context).messages("reports")).isZero();
            });
  }

  @Test
  void queueDetails_zeroIntervalReadsOnEveryCheck() {
    runner()
        .withPropertyValues("redrive.health.details-interval=0s")
        .run(
            context -> {
              assertThat(health(context).messages("reports")).isZero();
              context.getBean(Redrive.class).enqueue(message());
              assertThat(health(context).messages("reports")).isOne();
            });
  }

  @Test
  void negativeInterval_refusedNamingTheProperty() {
    runner()
        .withPropertyValues("redrive.health.details-interval=-5s")
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .hasMessageContaining("redrive.health.details-interval"));
  }

  @Test
  void down_whenTheWorkersStoppedWhileTheApplicationRuns() {
    runner()
        .run(
            context -> {
              context.getBean(RedriveWorkers.class).stop();
              Seen health = health(context);
              assertThat(health.status()).isEqualTo("DOWN");
              assertThat(health.details()).containsEntry("workers", "stopped");
            });
  }

  @Test
  void down_whenTheStoreCannotBeReached() {
    runner()
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              redrive.enqueue(NewMessage.builder("reports", "build").payload("{}").build());
              context.getBean(RedriveWorkers.class).stop();
              context.getBean(Store.class).close();
              Seen health = health(context);
              assertThat(health.status()).isEqualTo("DOWN");
              assertThat(health.details()).containsKey("error");
            });
  }

  @Test
  void withoutHandlers_upWithNoWorkers() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir)
        .run(context -> assertThat(health(context).status()).isEqualTo("UP"));
  }

  /** A message whose handler never completes it: ready, leased or dead, it stays counted. */
  private static NewMessage message() {
    return NewMessage.builder("reports", "not-handled-here").payload("{}").build();
  }

  /** The bean named redriveHealthIndicator's health(), through whichever Actuator is present. */
  @SuppressWarnings("unchecked")
  static Seen health(ApplicationContext context)
      throws ReflectiveOperationException, InvocationTargetException {
    Object indicator = context.getBean("redriveHealthIndicator");
    Object health = indicator.getClass().getMethod("health").invoke(indicator);
    Object status = health.getClass().getMethod("getStatus").invoke(health);
    String code = (String) status.getClass().getMethod("getCode").invoke(status);
    return new Seen(
        code, (Map<String, Object>) health.getClass().getMethod("getDetails").invoke(health));
  }
}
