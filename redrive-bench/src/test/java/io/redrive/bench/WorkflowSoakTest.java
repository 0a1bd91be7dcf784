package io.redrive.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.bench.WorkflowSoak.Sample;
import io.redrive.bench.WorkflowSoak.Settings;
import io.redrive.bench.contender.DurablePostgres;
import io.redrive.bench.contender.PostgresTarget;
import io.redrive.bench.contender.TableStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The soak's short form on the benchmark's PostgreSQL server: it runs, and every sample read every
 * table; never a size or a speed.
 */
class WorkflowSoakTest {

  @Test
  void run_oneMinute_samplesEveryTable() {
    String env = System.getenv("REDRIVE_PG_URL");
    String url = env != null && !env.isBlank() ? env.trim() : DurablePostgres.adminUrl();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    List<Sample> samples;
    try (PostgresTarget target = new PostgresTarget(url)) {
      samples =
          WorkflowSoak.run(
              target,
              new Settings(
                  Duration.ofMinutes(1), 2, Duration.ofSeconds(20), Duration.ofSeconds(20)),
              new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    assertThat(samples).as("one before the load, then one every 20 s").hasSize(4);
    for (Sample s : samples) {
      assertThat(s.tables())
          .extracting(TableStats.Table::table)
          .as("tables read at minute %.1f", s.minutes())
          .containsExactlyInAnyOrderElementsOf(WorkflowSoak.TABLES);
    }
    assertThat(samples.get(samples.size() - 1).counts().started()).isPositive();
    String summary = SoakReport.summary(samples);
    for (String table : WorkflowSoak.TABLES) {
      assertThat(summary).contains("| " + table + " |");
    }
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains("## minute 1.0");
  }

  @Test
  void settings_sampleLongerThanTheRun_isRejected() {
    assertThatThrownBy(
            () ->
                new Settings(
                    Duration.ofMinutes(1), 1, Duration.ofMinutes(2), Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("samplePeriod");
  }
}
