package io.redrive.test;

import io.redrive.testkit.TestPostgres;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The kit's queue half on PostgreSQL, in a schema of the test class's own. */
class PostgresKitTest extends KitContract {
  @RegisterExtension
  static RedriveExtension redrive = RedriveExtension.postgres(TestPostgres.adminUrl());
}
