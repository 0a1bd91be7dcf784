package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.queue.QueuePolicy;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * How long completed messages keep their story: the engine's default from {@code
 * redrive.completed-retention}, a queue's own from {@code
 * redrive.queues.<name>.completed-retention} or its bean's policy; bad values stop the application
 * naming the property.
 */
class CompletedRetentionTest {
  @TempDir Path dir;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  @Test
  void nothingSet_theEngineKeepsNone_andQueuesFollowIt() {
    runner()
        .withPropertyValues("redrive.queues.orders.max-attempts=3")
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              assertThat(redrive.completedRetention()).isZero();
              assertThat(redrive.getQueue("orders").policy().completedRetention()).isNull();
            });
  }

  @Test
  void engineDefault_isTheProperty() {
    runner()
        .withPropertyValues("redrive.completed-retention=12h")
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).completedRetention())
                    .isEqualTo(Duration.ofHours(12)));
  }

  @Test
  void aQueuesOwn_isDeclared_andAnotherPropertyLaterKeepsIt() {
    runner()
        .withPropertyValues(
            "redrive.completed-retention=1h", "redrive.queues.orders.completed-retention=24h")
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              assertThat(redrive.getQueue("orders").policy().completedRetention())
                  .isEqualTo(Duration.ofHours(24));
              assertThat(redrive.completedRetention()).isEqualTo(Duration.ofHours(1));
            });
    runner()
        .withPropertyValues("redrive.queues.orders.max-attempts=9")
        .run(
            context -> {
              QueuePolicy orders = context.getBean(Redrive.class).getQueue("orders").policy();
              assertThat(orders.maxAttempts()).isEqualTo(9);
              assertThat(orders.completedRetention()).isEqualTo(Duration.ofHours(24));
            });
  }

  @Test
  void aQueuesZero_keepsNone_whateverTheEngineDefault() {
    runner()
        .withPropertyValues(
            "redrive.completed-retention=1h", "redrive.queues.orders.completed-retention=0s")
        .run(
            context ->
                assertThat(
                        context
                            .getBean(Redrive.class)
                            .getQueue("orders")
                            .policy()
                            .completedRetention())
                    .isZero());
  }

  @Test
  void aBadQueueValue_stopsTheApplication_namingTheQueuesProperties() {
    runner()
        .withPropertyValues("redrive.queues.orders.completed-retention=91d")
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .hasMessageStartingWith("redrive.queues.orders: ")
                    .hasMessageContaining("completedRetention: must be between 0s"));
  }

  @Test
  void aBadEngineDefault_stopsTheApplication_namingTheProperty() {
    runner()
        .withPropertyValues("redrive.completed-retention=-1s")
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .hasMessage(
                        "redrive.completed-retention: completedRetention: must be between 0s"
                            + " (keep nothing) and 90d, was -1s"));
  }

  @Configuration(proxyBeanMethods = false)
  static class QueueBeans {
    @Bean
    RedriveQueue audit() {
      return RedriveQueue.of(
          "audit", QueuePolicy.defaults().withCompletedRetention(Duration.ofDays(7)));
    }
  }

  @Test
  void aQueueBeansPolicy_keepsItsRetention() {
    runner()
        .withUserConfiguration(QueueBeans.class)
        .run(
            context ->
                assertThat(
                        context
                            .getBean(Redrive.class)
                            .getQueue("audit")
                            .policy()
                            .completedRetention())
                    .isEqualTo(Duration.ofDays(7)));
  }
}
