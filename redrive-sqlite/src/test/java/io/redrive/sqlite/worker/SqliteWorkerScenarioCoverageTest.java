package io.redrive.sqlite.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.worker.WorkerScenarios;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqliteWorkerScenarioCoverageTest {
  @Test
  void suite_everyWorkerScenario_hasASqliteSubclass() {
    assertThat(
            WorkerScenarios.uncovered(
                List.of(
                    SqliteWorkerOutcomeTest.class,
                    SqliteWorkerClassificationTest.class,
                    SqliteWorkerMaintenanceTest.class,
                    SqliteWorkerHangTest.class,
                    SqliteWorkerHeartbeatTest.class,
                    SqliteWorkerUnregisteredTypeTest.class,
                    SqliteWorkerMixedLoadTest.class,
                    SqliteWorkerShutdownTest.class,
                    SqliteWorkerStreamTest.class,
                    SqliteWorkerPriorityTest.class,
                    SqliteWorkerProgressTest.class,
                    SqliteWorkerMetricsTest.class,
                    SqliteWorkerBuilderValidationTest.class,
                    SqliteWorkerCircuitTest.class)))
        .isEmpty();
  }
}
