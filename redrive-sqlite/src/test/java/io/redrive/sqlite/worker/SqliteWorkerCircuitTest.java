package io.redrive.sqlite.worker;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.worker.CircuitScenarios;

class SqliteWorkerCircuitTest extends CircuitScenarios {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
