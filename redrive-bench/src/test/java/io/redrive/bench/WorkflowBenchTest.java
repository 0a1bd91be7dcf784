package io.redrive.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.bench.WorkflowBench.Round;
import io.redrive.bench.contender.SqliteTarget;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workflow benchmark's smoke form: every instance completes and turns are timed; no speeds. */
class WorkflowBenchTest {

  @Test
  void run_sqlite_completesEveryInstanceAndTimesTurns(@TempDir Path dir) {
    Round sequential;
    Round fanOut;
    try (SqliteTarget target = new SqliteTarget(dir)) {
      sequential = WorkflowBench.run(target, 5, 0);
      fanOut = WorkflowBench.run(target, 2, 10);
    }

    assertThat(sequential.shape()).isEqualTo("3 activities");
    assertThat(sequential.instances()).isEqualTo(5);
    assertThat(sequential.turns()).as("at least 4 turns per instance").isGreaterThanOrEqualTo(20);
    assertThat(sequential.turnP99Ms()).isGreaterThanOrEqualTo(sequential.turnP50Ms());
    assertThat(fanOut.shape()).isEqualTo("fan-out 10");
    assertThat(fanOut.instancesPerSecond()).isPositive();
  }

  @Test
  void run_noInstances_isRejected(@TempDir Path dir) {
    try (SqliteTarget target = new SqliteTarget(dir)) {
      assertThatThrownBy(() -> WorkflowBench.run(target, 0, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("instances");
    }
  }
}
