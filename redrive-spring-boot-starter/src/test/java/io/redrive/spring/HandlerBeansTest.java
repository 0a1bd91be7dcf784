package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerContext;
import io.redrive.worker.HandlerResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Handler beans and methods become workers that run from the context's start to its stop; a stop
 * lets a running handler finish within the grace; bad handler declarations stop the application
 * naming the culprit.
 */
class HandlerBeansTest {
  @TempDir Path dir;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  /** Records what its handlers saw. */
  static class Emails {
    final List<String> sent = new CopyOnWriteArrayList<>();

    @RedriveHandler(queue = "emails", type = "welcome")
    void welcome(String payload) {
      sent.add("welcome " + payload);
    }

    @RedriveHandler(queue = "emails", type = "receipt")
    HandlerResult receipt(HandlerContext context) {
      sent.add("receipt " + context.payload() + " attempt " + context.attempt());
      return HandlerResult.complete();
    }

    @RedriveHandler(queue = "emails", type = "bounce")
    void bounce() {
      throw new IllegalStateException("mailbox full");
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class EmailsConfig {
    @Bean
    Emails emails() {
      return new Emails();
    }

    @Bean
    SmsHandler sms() {
      return new SmsHandler();
    }
  }

  /** A handler bean, annotated on its type. */
  @RedriveHandler(queue = "sms", type = "code")
  static class SmsHandler implements Handler {
    final List<String> sent = new CopyOnWriteArrayList<>();

    @Override
    public HandlerResult handle(HandlerContext context) {
      sent.add(context.payload());
      return HandlerResult.complete();
    }
  }

  @Test
  void handlerMethodsAndBeans_runTheirTypes_inQueuesDeclaredForThem() {
    runner()
        .withUserConfiguration(EmailsConfig.class)
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              redrive.enqueue(message("emails", "welcome", "\"ann\""));
              redrive.enqueue(message("emails", "receipt", "\"r-1\""));
              redrive.enqueue(message("sms", "code", "\"1234\""));
              Emails emails = context.getBean(Emails.class);
              await()
                  .atMost(Duration.ofSeconds(20))
                  .until(
                      () ->
                          redrive.stats("emails").total() == 0
                              && redrive.stats("sms").total() == 0);
              assertThat(emails.sent)
                  .containsExactlyInAnyOrder("welcome \"ann\"", "receipt \"r-1\" attempt 1");
              assertThat(context.getBean(SmsHandler.class).sent).containsExactly("\"1234\"");
              assertThat(context.getBean(RedriveWorkers.class).workers())
                  .containsOnlyKeys("emails", "sms");
            });
  }

  @Test
  void aHandlerMethodThatThrows_failsTheMessage_withItsError() {
    runner()
        .withUserConfiguration(EmailsConfig.class)
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              String id = redrive.enqueue(message("emails", "bounce", "{}")).id();
              await()
                  .atMost(Duration.ofSeconds(20))
                  .until(
                      () ->
                          redrive.getMessage(id).history().stream()
                              .anyMatch(h -> h.outcome() == Outcome.FAILED));
              assertThat(redrive.getMessage(id).history())
                  .filteredOn(h -> h.outcome() == Outcome.FAILED)
                  .first()
                  .satisfies(h -> assertThat(h.failure().message()).contains("mailbox full"));
            });
  }

  /** A handler that blocks until released, to be running when the context stops. */
  static class Slow {
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean finished;

    @RedriveHandler(queue = "reports", type = "build")
    void build() throws InterruptedException {
      started.countDown();
      release.await(30, TimeUnit.SECONDS);
      finished = true;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class SlowConfig {
    @Bean
    Slow slow() {
      return new Slow();
    }
  }

  @Test
  void stop_letsARunningHandlerFinish_andItsMessageCompletes() throws Exception {
    String[] id = new String[1];
    Slow[] slow = new Slow[1];
    runner()
        .withUserConfiguration(SlowConfig.class)
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              slow[0] = context.getBean(Slow.class);
              id[0] = redrive.enqueue(message("reports", "build", "{}")).id();
              assertThat(slow[0].started.await(20, TimeUnit.SECONDS)).isTrue();
              // Released once the stop has begun: the stop waits for it.
              RedriveWorkers workers = context.getBean(RedriveWorkers.class);
              new Thread(
                      () -> {
                        await().atMost(Duration.ofSeconds(20)).until(() -> !workers.isRunning());
                        slow[0].release.countDown();
                      })
                  .start();
            });
    assertThat(slow[0].finished).as("the handler ran to its end").isTrue();
    runner()
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              assertThat(redrive.stats("reports").total()).as("completed, not given back").isZero();
            });
  }

  @Test
  void stop_pastTheGrace_givesTheMessageBack() throws Exception {
    String[] id = new String[1];
    runner()
        .withUserConfiguration(SlowConfig.class)
        .withPropertyValues("redrive.workers.reports.shutdown-grace=200ms")
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              id[0] = redrive.enqueue(message("reports", "build", "{}")).id();
              assertThat(context.getBean(Slow.class).started.await(20, TimeUnit.SECONDS)).isTrue();
            });
    runner()
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              assertThat(redrive.getMessage(id[0]).state())
                  .as("interrupted at the grace and given back")
                  .isEqualTo(MessageState.READY);
            });
  }

  /** A handler that takes three seconds. */
  static class ThreeSeconds {
    final CountDownLatch started = new CountDownLatch(1);

    @RedriveHandler(queue = "slow", type = "work")
    void work() throws InterruptedException {
      started.countDown();
      Thread.sleep(3_000);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class ThreeSecondsConfig {
    @Bean
    ThreeSeconds threeSeconds() {
      return new ThreeSeconds();
    }
  }

  @Test
  void theDefaultGrace_isASecondLessThanSpringsShutdownPhase() {
    String[] id = new String[1];
    runner()
        .withUserConfiguration(ThreeSecondsConfig.class)
        .withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=2s")
        .run(
            context -> {
              id[0] = context.getBean(Redrive.class).enqueue(message("slow", "work", "{}")).id();
              assertThat(context.getBean(ThreeSeconds.class).started.await(20, TimeUnit.SECONDS))
                  .isTrue();
            });
    runner()
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).getMessage(id[0]).state())
                    .as("a 1 s grace cut the 3 s handler short and gave its message back")
                    .isEqualTo(MessageState.READY));
  }

  @Configuration(proxyBeanMethods = false)
  static class TwiceConfig {
    @Bean
    Emails first() {
      return new Emails();
    }

    @Bean
    Emails second() {
      return new Emails();
    }
  }

  @Test
  void twoHandlersOfOneType_stopTheApplication_namingBoth() {
    runner()
        .withUserConfiguration(TwiceConfig.class)
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .hasMessageContaining("of queue 'emails' has two handlers")
                    .hasMessageContaining("of bean 'first'")
                    .hasMessageContaining("of bean 'second'"));
  }

  /** A handler method with a signature the starter cannot call. */
  static class Wrong {
    @RedriveHandler(queue = "q", type = "t")
    void handle(String payload, int extra) {}
  }

  @Configuration(proxyBeanMethods = false)
  static class WrongConfig {
    @Bean
    Wrong wrong() {
      return new Wrong();
    }
  }

  @Test
  void aHandlerMethodOfAnotherSignature_stopsTheApplication_sayingWhatItMayTake() {
    runner()
        .withUserConfiguration(WrongConfig.class)
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .hasMessageContaining("Wrong.handle")
                    .hasMessageContaining("takes a HandlerContext, the payload as a String"));
  }

  @Test
  void noHandlers_noWorkers() {
    runner().run(context -> assertThat(context.getBean(RedriveWorkers.class).workers()).isEmpty());
  }

  private static NewMessage message(String queue, String type, String payload) {
    return NewMessage.builder(queue, type).payload(payload).build();
  }
}
