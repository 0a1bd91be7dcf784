package io.redrive.workflow.testkit;

import io.redrive.test.RedriveTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The environment on a temporary SQLite file ({@code @RedriveTest}). */
@RedriveTest
class WorkflowTestEnvironmentSqliteTest extends WorkflowTestEnvironmentContract {
  @RegisterExtension
  static final WorkflowTestExtension WORKFLOWS =
      WorkflowTestExtension.of(WorkflowTestEnvironmentContract::registry).with(SETTINGS);

  @Override
  Connection connect(WorkflowTestEnvironment env) throws SQLException {
    Connection c =
        DriverManager.getConnection("jdbc:sqlite:" + env.redrive().sqliteFile().orElseThrow());
    c.setAutoCommit(false);
    return c;
  }
}
