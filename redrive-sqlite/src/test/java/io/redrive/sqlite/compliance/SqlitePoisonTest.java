package io.redrive.sqlite.compliance;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.compliance.PoisonContract;

class SqlitePoisonTest extends PoisonContract {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
