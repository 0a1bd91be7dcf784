package io.redrive.workflow.testkit;

import io.redrive.test.RedriveExtension;
import io.redrive.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The environment on PostgreSQL, in a schema of the class's own. The short class name keeps the
 * schema's NOTIFY channel ({@code redrive_ready:<schema>}) within PostgreSQL's 63 bytes.
 */
class WorkflowEnvPgTest extends WorkflowTestEnvironmentContract {
  @RegisterExtension
  static final RedriveExtension REDRIVE = RedriveExtension.postgres(TestPostgres.adminUrl());

  @RegisterExtension
  static final WorkflowTestExtension WORKFLOWS =
      WorkflowTestExtension.of(WorkflowTestEnvironmentContract::registry).with(SETTINGS);

  @Override
  Connection connect(WorkflowTestEnvironment env) throws SQLException {
    Connection c =
        DriverManager.getConnection(
            TestPostgres.urlForSchema(env.redrive().schema().orElseThrow()));
    c.setAutoCommit(false);
    return c;
  }
}
