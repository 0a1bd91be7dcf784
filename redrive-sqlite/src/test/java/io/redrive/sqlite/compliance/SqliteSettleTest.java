package io.redrive.sqlite.compliance;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.compliance.SettleContract;

class SqliteSettleTest extends SettleContract {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
