package io.redrive.postgres.compliance;

import io.redrive.postgres.PostgresFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.compliance.CircuitContract;

class PostgresCircuitTest extends CircuitContract {
  @Override
  protected StoreFixture fixture() {
    return PostgresFixture.INSTANCE;
  }
}
