package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.testing.Cli;
import io.redrive.jdbc.MigrationMode;
import io.redrive.server.config.ConfigLoader;
import io.redrive.sqlite.SqliteStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive migrate}: applies or prints the schema migrations, talking to the database. */
class MigrateCommandTest {
  @TempDir Path dir;

  @Test
  void migrate_freshDataDir_appliesThenReportsCurrent() {
    Path data = dir.resolve("data");

    Cli.Result first = Cli.run("migrate", "--data-dir", data.toString());
    Cli.Result second = Cli.run("migrate", "--data-dir", data.toString());

    assertThat(first.exit()).as(first.toString()).isZero();
    assertThat(first.out()).contains("SQLite at ").contains("applied V1, V2, V3");
    assertThat(second.out()).contains("schema is current, nothing to apply");
    SqliteStore.builder(data.resolve(SqliteStore.FILE_NAME))
        .migrationMode(MigrationMode.VALIDATE)
        .build()
        .close();
  }

  @Test
  void printSql_changesNothing_andRunAsPrintedSatisfiesAValidatingStore() throws Exception {
    Path data = dir.resolve("data");

    Cli.Result printed = Cli.run("migrate", "--data-dir", data.toString(), "--print-sql");

    assertThat(printed.exit()).as(printed.toString()).isZero();
    assertThat(printed.out()).contains("CREATE TABLE redrive_queues", "redrive_schema_history");
    Path file = data.resolve(SqliteStore.FILE_NAME);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      try (var rs = s.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'")) {
        rs.next();
        assertThat(rs.getInt(1)).as("printing created no table").isZero();
      }
      c.setAutoCommit(false);
      for (String statement : printed.out().split(";\\s*\\n")) {
        String sql =
            statement
                .lines()
                .filter(l -> !l.strip().startsWith("--"))
                .reduce("", (a, b) -> a + b + "\n");
        if (!sql.isBlank()) {
          s.execute(sql);
        }
      }
      c.commit();
    }
    SqliteStore.builder(file).migrationMode(MigrationMode.VALIDATE).build().close();
    assertThat(Files.exists(file)).isTrue();
  }

  @Test
  void validatingServer_refusesAnUnmigratedStore_untilMigrateAppliesIt() throws Exception {
    Path config = dir.resolve("redrive.toml");
    Files.writeString(config, "[store]\ndataDir = \"data\"\nmigrations = \"validate\"\n");

    Cli.Result refused = Cli.run("server", "--config", config.toString(), "--port", "0");
    Cli.Result migrated = Cli.run("migrate", "--config", config.toString());

    assertThat(refused.exit()).as(refused.toString()).isNotZero();
    assertThat(refused.err()).contains("missing V1", "redrive migrate");
    assertThat(migrated.out()).contains("applied V1, V2, V3");
    new ConfigLoader(System::getenv).load(config).store().open().close();
  }

  @Test
  void migrate_unreachablePostgres_failsWithOneLineNamingTheServer() {
    Cli.Result r = Cli.run("migrate", "--pg-url", "jdbc:postgresql://127.0.0.1:1/none");

    assertThat(r.exit()).isNotZero();
    assertThat(r.err()).contains("127.0.0.1:1");
  }
}
