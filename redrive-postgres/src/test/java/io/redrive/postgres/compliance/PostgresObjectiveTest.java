package io.redrive.postgres.compliance;

import io.redrive.postgres.PostgresFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.compliance.ObjectiveContract;

class PostgresObjectiveTest extends ObjectiveContract {
  @Override
  protected StoreFixture fixture() {
    return PostgresFixture.INSTANCE;
  }
}
