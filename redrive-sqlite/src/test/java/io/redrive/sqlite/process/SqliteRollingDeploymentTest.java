package io.redrive.sqlite.process;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.process.RollingDeploymentScenario;

class SqliteRollingDeploymentTest extends RollingDeploymentScenario {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
