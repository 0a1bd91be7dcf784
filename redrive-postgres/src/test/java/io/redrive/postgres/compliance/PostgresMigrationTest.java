package io.redrive.postgres.compliance;

import io.redrive.postgres.migration.PostgresMigrationFixture;
import io.redrive.testkit.migration.MigrationContract;
import io.redrive.testkit.migration.MigrationFixture;

class PostgresMigrationTest extends MigrationContract {
  @Override
  protected MigrationFixture fixture() {
    return PostgresMigrationFixture.INSTANCE;
  }
}
