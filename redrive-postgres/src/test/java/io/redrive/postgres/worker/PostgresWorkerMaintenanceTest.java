package io.redrive.postgres.worker;

import io.redrive.postgres.PostgresFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.worker.MaintenanceScenarios;

class PostgresWorkerMaintenanceTest extends MaintenanceScenarios {
  @Override
  protected StoreFixture fixture() {
    return PostgresFixture.INSTANCE;
  }
}
