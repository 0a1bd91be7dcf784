package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code redrive.unserved-after} sets the engine's unserved-types threshold (docs/engine.md, "Live
 * workers and unserved types"): 5 minutes when unset, the property when set, and a value out of
 * range stops the application naming the property.
 */
class UnservedAfterTest {
  @TempDir Path dir;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  @Test
  void unset_isTheEnginesDefault() {
    runner()
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).unservedAfter())
                    .isEqualTo(Redrive.DEFAULT_UNSERVED_AFTER));
  }

  @Test
  void set_isTheEnginesThreshold() {
    runner()
        .withPropertyValues("redrive.unserved-after=2m")
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).unservedAfter())
                    .isEqualTo(Duration.ofMinutes(2)));
  }

  @Test
  void outOfRange_stopsTheApplication_namingTheProperty() {
    runner()
        .withPropertyValues("redrive.unserved-after=5s")
        .run(
            context ->
                assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("redrive.unserved-after")
                    .hasMessageContaining("30s"));
  }
}
