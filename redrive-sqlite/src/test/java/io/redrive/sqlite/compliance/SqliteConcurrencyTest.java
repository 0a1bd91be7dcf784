package io.redrive.sqlite.compliance;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.compliance.ConcurrencyContract;

class SqliteConcurrencyTest extends ConcurrencyContract {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
