package io.redrive.sqlite.compliance;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.compliance.StatsContract;

class SqliteStatsTest extends StatsContract {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }
}
