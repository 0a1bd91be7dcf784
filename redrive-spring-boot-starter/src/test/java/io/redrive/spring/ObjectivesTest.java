package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveKind;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Objectives declared from {@code redrive.objectives.*}: saved on start; bad values stop it. */
class ObjectivesTest {
  @TempDir Path dir;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  @Test
  void everyProperty_reachesTheSavedObjective() {
    runner()
        .withPropertyValues(
            "redrive.objectives.orders-start.queue=orders",
            "redrive.objectives.orders-start.type=charge",
            "redrive.objectives.orders-start.stream=eu",
            "redrive.objectives.orders-start.kind=latency",
            "redrive.objectives.orders-start.target=0.95",
            "redrive.objectives.orders-start.bound=1m",
            "redrive.objectives.orders-start.window=1h",
            "redrive.objectives.orders-fresh.queue=orders",
            "redrive.objectives.orders-fresh.kind=age",
            "redrive.objectives.orders-fresh.target=0.99",
            "redrive.objectives.orders-fresh.bound=5m")
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).objectives().list())
                    .containsExactly(
                        new Objective(
                            "orders-fresh",
                            "orders",
                            null,
                            null,
                            ObjectiveKind.AGE,
                            0.99,
                            Duration.ofMinutes(5),
                            Duration.ofDays(28)),
                        new Objective(
                            "orders-start",
                            "orders",
                            "charge",
                            "eu",
                            ObjectiveKind.LATENCY,
                            0.95,
                            Duration.ofMinutes(1),
                            Duration.ofHours(1))));
  }

  @Test
  void aBadValue_stopsTheApplication_namingTheObjective() {
    runner()
        .withPropertyValues(
            "redrive.objectives.bad.queue=orders",
            "redrive.objectives.bad.kind=latency",
            "redrive.objectives.bad.target=1.5",
            "redrive.objectives.bad.bound=1m")
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("redrive.objectives.bad: ")
                    .hasMessageContaining("target"));
  }
}
