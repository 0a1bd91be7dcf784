package io.redrive.sqlite.worker;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.worker.HangScenarios;

class SqliteWorkerHangTest extends HangScenarios {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
