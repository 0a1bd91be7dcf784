package io.redrive.postgres.worker;

import io.redrive.postgres.PostgresFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.worker.CircuitScenarios;

class PostgresWorkerCircuitTest extends CircuitScenarios {
  @Override
  protected StoreFixture fixture() {
    return PostgresFixture.INSTANCE;
  }
}
