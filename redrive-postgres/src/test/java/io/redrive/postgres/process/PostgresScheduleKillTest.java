package io.redrive.postgres.process;

import io.redrive.postgres.PostgresFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.process.ScheduleKillScenario;

class PostgresScheduleKillTest extends ScheduleKillScenario {
  @Override
  protected StoreFixture fixture() {
    return PostgresFixture.INSTANCE;
  }
}
