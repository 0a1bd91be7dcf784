package io.redrive.sqlite.process;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.process.PoisonByCrashScenario;

class SqlitePoisonByCrashTest extends PoisonByCrashScenario {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
