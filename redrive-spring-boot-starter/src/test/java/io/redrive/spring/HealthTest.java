package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.store.Store;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Redrive's Actuator health: UP with per-queue details; DOWN without the store or its workers. */
class HealthTest {
  @TempDir Path dir;

  /** A handler that never completes anything quickly enough to matter here. */
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
              Health health = indicator(context.getBean(Redrive.class), context).health();
              assertThat(health.getStatus()).isEqualTo(Status.UP);
              assertThat(health.getDetails())
                  .containsEntry("store", "reachable")
                  .containsEntry("workers", "running");
              @SuppressWarnings("unchecked")
              Map<String, Map<String, Object>> queues =
                  (Map<String, Map<String, Object>>) health.getDetails().get("queues");
              assertThat(queues).containsOnlyKeys("reports");
              assertThat(queues.get("reports"))
                  .containsKeys("worker", "inFlight", "ready", "leased", "dead", "oldestReadyAge");
            });
  }

  @Test
  void down_whenTheWorkersStoppedWhileTheApplicationRuns() {
    runner()
        .run(
            context -> {
              context.getBean(RedriveWorkers.class).stop();
              Health health = indicator(context.getBean(Redrive.class), context).health();
              assertThat(health.getStatus()).isEqualTo(Status.DOWN);
              assertThat(health.getDetails()).containsEntry("workers", "stopped");
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
              Health health = indicator(redrive, context).health();
              assertThat(health.getStatus()).isEqualTo(Status.DOWN);
              assertThat(health.getDetails()).containsKey("error");
            });
  }

  @Test
  void withoutHandlers_upWithNoWorkers() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir)
        .run(
            context ->
                assertThat(
                        context
                            .getBean("redriveHealthIndicator", HealthIndicator.class)
                            .health()
                            .getStatus())
                    .isEqualTo(Status.UP));
  }

  private static HealthIndicator indicator(
      Redrive redrive, org.springframework.context.ApplicationContext context) {
    return context.getBean("redriveHealthIndicator", HealthIndicator.class);
  }
}
