package io.redrive.postgres.compliance;

import io.redrive.postgres.PostgresFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.compliance.DeadGroupsContract;

class PostgresDeadGroupsTest extends DeadGroupsContract {
  @Override
  protected StoreFixture fixture() {
    return PostgresFixture.INSTANCE;
  }
}
