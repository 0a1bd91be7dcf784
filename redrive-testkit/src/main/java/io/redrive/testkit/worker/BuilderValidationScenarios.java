package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerRegistration;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Every {@link Worker.Builder} setting refuses a bad value with an {@link IllegalArgumentException}
 * that names the setting, before anything runs.
 */
public abstract class BuilderValidationScenarios extends WorkerScenarioBase {
  private static final Handler OK = ctx -> HandlerResult.complete();
  private static final Duration NEGATIVE = Duration.ofMillis(-1);

  private void assertRefused(String setting, Consumer<Worker.Builder> configure) {
    Worker.Builder builder = Worker.builder(redrive, QUEUE).handler(TYPE, OK);
    assertThatThrownBy(
            () -> {
              configure.accept(builder);
              builder.build();
            })
        .as("setting %s", setting)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(setting);
  }

  @Test
  void build_noHandlers_refusedNamingHandlers() {
    assertThatThrownBy(() -> Worker.builder(redrive, QUEUE).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("handlers")
        .hasMessageContaining(QUEUE);
  }

  @Test
  void builder_missingEngineOrBadQueueName_refused() {
    assertThatThrownBy(() -> Worker.builder(null, QUEUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("redrive");
    assertThatThrownBy(() -> Worker.builder(redrive, "no spaces allowed"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queue");
    assertThatThrownBy(() -> Worker.builder(redrive, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queue");
  }

  @Test
  void leaseOnlyHandledTypes_moreHandlersThanALeaseMayFilter_refused() {
    Worker.Builder builder = Worker.builder(redrive, QUEUE).leaseOnlyHandledTypes(true);
    for (int i = 0; i <= 1000; i++) {
      builder.handler("t" + i, OK);
    }

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leaseOnlyHandledTypes: at most 1000 handlers, was 1001");
    builder.leaseOnlyHandledTypes(false).build();
  }

  @Test
  void concurrencyAndBatchSize_outOfRange_refused() {
    assertRefused("concurrency", b -> b.concurrency(0));
    assertRefused("concurrency", b -> b.concurrency(-3));
    assertRefused("concurrency", b -> b.concurrency(1001));
    assertRefused("batchSize", b -> b.batchSize(0));
    assertRefused("batchSize", b -> b.batchSize(1001));
  }

  @Test
  void id_blankOrTooLong_refused() {
    assertRefused("id", b -> b.id(null));
    assertRefused("id", b -> b.id(""));
    assertRefused("id", b -> b.id("   "));
    assertRefused("id", b -> b.id("w".repeat(201)));
  }

  @Test
  void durations_negativeZeroOrMissing_refused() {
    assertRefused("leaseTimeout", b -> b.leaseTimeout(NEGATIVE));
    assertRefused("leaseTimeout", b -> b.leaseTimeout(Duration.ZERO));
    assertRefused("leaseTimeout", b -> b.leaseTimeout(null));
    assertRefused("leaseTimeout", b -> b.leaseTimeout(Duration.ofHours(13)));
    assertRefused("maxRenewal", b -> b.maxRenewal(NEGATIVE));
    assertRefused("maxRenewal", b -> b.maxRenewal(Duration.ZERO));
    assertRefused("maxRenewal", b -> b.maxRenewal(null));
    assertRefused("pollInterval.min", b -> b.pollInterval(NEGATIVE, Duration.ofSeconds(1)));
    assertRefused("pollInterval.min", b -> b.pollInterval(Duration.ZERO, Duration.ofSeconds(1)));
    assertRefused("pollInterval.max", b -> b.pollInterval(Duration.ofMillis(10), NEGATIVE));
    assertRefused(
        "pollInterval.max", b -> b.pollInterval(Duration.ofSeconds(2), Duration.ofSeconds(1)));
    assertRefused("shutdownGrace", b -> b.shutdownGrace(NEGATIVE));
    assertRefused("shutdownGrace", b -> b.shutdownGrace(null));
    assertRefused("queueDepthInterval", b -> b.queueDepthInterval(NEGATIVE));
    assertRefused("queueDepthInterval", b -> b.queueDepthInterval(null));
  }

  @Test
  void strategies_missing_refused() {
    assertRefused("unregisteredBackoff", b -> b.unregisteredBackoff(null));
    assertRefused("classifier", b -> b.classifier(null));
    assertRefused("meterRegistry", b -> b.meterRegistry(null));
    assertThatThrownBy(
            () -> new UnregisteredHandlerBackoff(Duration.ZERO, 6, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unregisteredBackoff.base");
  }

  @Test
  void handlers_duplicateTypeOrBadRegistration_refused() {
    assertRefused("handler", b -> b.handler(TYPE, OK));
    assertRefused(TYPE, b -> b.handler(TYPE, OK));
    assertRefused("registration", b -> b.handler(null));
    assertRefused("type", b -> b.handler("", OK));
    assertRefused("type", b -> b.handler("t".repeat(201), OK));
    assertRefused("handler", b -> b.handler("other", null));
    assertRefused(
        "timeout", b -> b.handler(HandlerRegistration.of("other", OK).withTimeout(NEGATIVE)));
    assertRefused(
        "timeout", b -> b.handler(HandlerRegistration.of("other", OK).withTimeout(Duration.ZERO)));
  }

  @Test
  void stop_negativeGrace_refused() {
    createQueue(fastPolicy());
    Worker worker = start(worker().handler(TYPE, OK));

    assertThatThrownBy(() -> worker.stop(NEGATIVE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("grace");
    assertThatThrownBy(() -> worker.stop(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("grace");
    assertThatThrownBy(worker::start).isInstanceOf(IllegalStateException.class);
    assertThatCode(() -> worker.stop(Duration.ZERO)).doesNotThrowAnyException();
  }
}
