package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Queues declared from {@code redrive.queues.*}: created, merged, and bad values refused. */
class QueuesTest {
  @TempDir Path dir;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  @Test
  void declaredQueues_areCreated_aDeadLetterQueueNamedBeforeItIsDeclared() {
    runner()
        .withPropertyValues(
            "redrive.queues.orders.max-attempts=7",
            "redrive.queues.orders.lease-timeout=2m",
            "redrive.queues.orders.dead-letter=orders-dlq",
            "redrive.queues.orders-dlq.dead-letter=keep",
            "redrive.queues.orders-dlq.expire-after=7d")
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              QueuePolicy orders = redrive.getQueue("orders").policy();
              assertThat(orders.maxAttempts()).isEqualTo(7);
              assertThat(orders.leaseTimeout()).isEqualTo(Duration.ofMinutes(2));
              assertThat(orders.deadLetter()).isEqualTo(DeadLetter.moveTo("orders-dlq"));
              assertThat(redrive.getQueue("orders-dlq").policy().expireAfter())
                  .isEqualTo(Duration.ofDays(7));
            });
  }

  @Test
  void anExistingQueue_getsTheFieldsSet_andKeepsTheOthers() {
    runner()
        .withPropertyValues(
            "redrive.queues.mail.max-attempts=3", "redrive.queues.mail.lease-timeout=45s")
        .run(context -> assertThat(context).hasNotFailed());
    runner()
        .withPropertyValues("redrive.queues.mail.max-attempts=9")
        .run(
            context -> {
              QueuePolicy mail = context.getBean(Redrive.class).getQueue("mail").policy();
              assertThat(mail.maxAttempts()).isEqualTo(9);
              assertThat(mail.leaseTimeout()).isEqualTo(Duration.ofSeconds(45));
            });
  }

  @Test
  void aBadValue_stopsTheApplication_namingTheQueuesProperties() {
    runner()
        .withPropertyValues("redrive.queues.orders.max-attempts=0")
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .hasMessageStartingWith("redrive.queues.orders: ")
                    .hasMessageContaining("maxAttempts"));
  }

  @Test
  void aDeadLetterQueueThatDoesNotExist_stopsTheApplication_namingIt() {
    runner()
        .withPropertyValues("redrive.queues.orders.dead-letter=nowhere")
        .run(context -> StartFailures.rootCauseOf(context).hasMessageContaining("nowhere"));
  }

  @Configuration(proxyBeanMethods = false)
  static class QueueBeans {
    @Bean
    RedriveQueue payments() {
      return RedriveQueue.of(
          "payments",
          QueuePolicy.defaults()
              .withMaxAttempts(4)
              .withDeadLetter(DeadLetter.moveTo("payments-dlq")));
    }

    @Bean
    RedriveQueue paymentsDlq() {
      return RedriveQueue.of("payments-dlq");
    }
  }

  @Test
  void queueBeans_areDeclared_aDeadLetterQueueDeclaredAfterTheQueueNamingIt() {
    runner()
        .withUserConfiguration(QueueBeans.class)
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              QueuePolicy payments = redrive.getQueue("payments").policy();
              assertThat(payments.maxAttempts()).isEqualTo(4);
              assertThat(payments.deadLetter()).isEqualTo(DeadLetter.moveTo("payments-dlq"));
              assertThat(redrive.getQueue("payments-dlq").policy())
                  .isEqualTo(QueuePolicy.defaults());
            });
  }
}
