package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.Rate;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Queues declared from {@code redrive.queues.*}: created, merged, their priorities and flow limits
 * set, and bad values refused.
 */
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

  @Test
  void priorityAndFlowLimitProperties_areApplied_throughTheCoreTypes() {
    runner()
        .withPropertyValues(
            "redrive.queues.reports.default-priority=3",
            "redrive.queues.reports.priority-aging=30s",
            "redrive.queues.reports.max-running=5",
            "redrive.queues.reports.max-running-per-key=1",
            "redrive.queues.reports.rate=100/1m",
            "redrive.queues.reports.rate-per-key=10/1s")
        .run(
            context -> {
              QueuePolicy reports = context.getBean(Redrive.class).getQueue("reports").policy();
              assertThat(reports.priority())
                  .isEqualTo(new PriorityPolicy(3, Duration.ofSeconds(30)));
              assertThat(reports.limits())
                  .isEqualTo(
                      new FlowLimits(
                          5,
                          1,
                          Rate.of(100, Duration.ofMinutes(1)),
                          Rate.of(10, Duration.ofSeconds(1))));
            });
  }

  @Test
  void theLimitsNamed_areAllTheQueueHas_andNamingNoneKeepsThem() {
    runner()
        .withPropertyValues(
            "redrive.queues.api.max-running=5", "redrive.queues.api.rate-per-key=10/1s")
        .run(context -> assertThat(context).hasNotFailed());
    runner()
        .withPropertyValues("redrive.queues.api.max-running-per-key=2")
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).getQueue("api").policy().limits())
                    .as("as in redrive.toml: the limits named replace the queue's")
                    .isEqualTo(new FlowLimits(null, 2, null, null)));
    runner()
        .withPropertyValues("redrive.queues.api.max-attempts=4")
        .run(
            context -> {
              QueuePolicy api = context.getBean(Redrive.class).getQueue("api").policy();
              assertThat(api.maxAttempts()).isEqualTo(4);
              assertThat(api.limits()).isEqualTo(new FlowLimits(null, 2, null, null));
            });
  }

  @Test
  void backoffJitterProperty_spreadsTheQueuesBackoff_keepingItsDelays() {
    runner()
        .withPropertyValues("redrive.queues.reports.backoff-jitter=equal")
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).getQueue("reports").policy().backoff())
                    .isEqualTo(
                        io.redrive.retry.Backoff.defaultBackoff()
                            .withJitter(io.redrive.retry.Jitter.EQUAL)));
  }

  @Test
  void circuitProperties_turnOnTheCircuitBreaker_othersDefault() {
    runner()
        .withPropertyValues(
            "redrive.queues.mail.circuit-failures=3", "redrive.queues.mail.circuit-waves=1,10")
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).getQueue("mail").policy().circuit())
                    .isEqualTo(
                        new io.redrive.queue.CircuitPolicy(
                            3,
                            Duration.ofSeconds(30),
                            Duration.ofSeconds(10),
                            java.util.List.of(1, 10),
                            false)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "default-priority=10 | defaultPriority: must be between 0 and 9",
        "priority-aging=0s   | priorityAging: must be between 1s and 1d",
        "max-running=0       | maxRunning: must be between 1 and 100000",
        "max-running-per-key=100001 | maxRunningPerKey: must be between 1 and 100000",
        "rate=fast           | rate: must be leases/period such as \"100/1m\", was \"fast\"",
        "rate-per-key=0/1s   | ratePerKey: rate: leases per period must be between 1 and",
        "backoff-jitter=half | backoffJitter: must be one of NONE, FULL, EQUAL, was half",
      })
  void aBadPriorityOrLimit_stopsTheApplication_namingThePropertyAndValue(
      String property, String message) {
    runner()
        .withPropertyValues("redrive.queues.orders." + property)
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("redrive.queues.orders: ")
                    .hasMessageContaining(message));
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
