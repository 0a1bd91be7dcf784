package io.redrive.sqlite.compliance;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.compliance.SettleThenLeaseContract;

class SqliteSettleThenLeaseTest extends SettleThenLeaseContract {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
