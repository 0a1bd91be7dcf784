package io.redrive.sqlite.compliance;

import io.redrive.sqlite.migration.SqliteMigrationFixture;
import io.redrive.testkit.migration.MigrationContract;
import io.redrive.testkit.migration.MigrationFixture;

class SqliteMigrationTest extends MigrationContract {
  @Override
  protected MigrationFixture fixture() {
    return SqliteMigrationFixture.INSTANCE;
  }
}
