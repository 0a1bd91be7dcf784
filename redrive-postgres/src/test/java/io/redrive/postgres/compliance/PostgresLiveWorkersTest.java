package io.redrive.postgres.compliance;

import io.redrive.postgres.PostgresFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.compliance.LiveWorkersContract;

class PostgresLiveWorkersTest extends LiveWorkersContract {
  @Override
  protected StoreFixture fixture() {
    return PostgresFixture.INSTANCE;
  }
}
