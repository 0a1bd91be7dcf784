package io.redrive.postgres.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.worker.WorkerScenarios;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresWorkerScenarioCoverageTest {
  @Test
  void suite_everyWorkerScenario_hasAPostgresSubclass() {
    assertThat(
            WorkerScenarios.uncovered(
                List.of(
                    PostgresWorkerOutcomeTest.class,
                    PostgresWorkerClassificationTest.class,
                    PostgresWorkerMaintenanceTest.class,
                    PostgresWorkerHangTest.class,
                    PostgresWorkerHeartbeatTest.class,
                    PostgresWorkerUnregisteredTypeTest.class,
                    PostgresWorkerMixedLoadTest.class,
                    PostgresWorkerShutdownTest.class,
                    PostgresWorkerStreamTest.class,
                    PostgresWorkerPriorityTest.class,
                    PostgresWorkerProgressTest.class,
                    PostgresWorkerMetricsTest.class,
                    PostgresWorkerBuilderValidationTest.class,
                    PostgresWorkerCircuitTest.class)))
        .isEmpty();
  }
}
