package io.redrive.sqlite.worker;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.worker.PriorityScenarios;

class SqliteWorkerPriorityTest extends PriorityScenarios {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
