import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.redrive.Redrive;
import io.redrive.postgres.PostgresStore;
import io.redrive.testkit.ReadmeBlocks;
import io.redrive.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * The README's PostgreSQL example: the same text, run as written twice in a row in an application's
 * database.
 */
class ReadmePostgresExampleTest {

  @Test
  void readme_showsExactlyTheExampleTheTestRuns() throws Exception {
    assertThat(ReadmeBlocks.block("PostgresExample"))
        .isEqualTo(ReadmeBlocks.source("PostgresExample"));
  }

  @Test
  void example_twiceInARow_besideApplicationTablesAndItsFlyway() throws Exception {
    String database = TestPostgres.createDatabase("readme");
    try {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(TestPostgres.urlForDatabase(database));
      config.setMaximumPoolSize(6);
      try (HikariDataSource app = new HikariDataSource(config)) {
        Flyway.configure().dataSource(app).locations("classpath:db/app").load().migrate();

        PostgresExample.run(app);
        PostgresExample.run(app);

        assertThat(app.isClosed()).as("Redrive never closes the application's pool").isFalse();
        assertThat(count(app, "SELECT COUNT(*) FROM orders")).isEqualTo(2);
        assertThat(count(app, "SELECT COUNT(*) FROM flyway_schema_history WHERE script LIKE 'V%'"))
            .as("the application's history holds only its own migration")
            .isEqualTo(1);
        assertThat(count(app, "SELECT COUNT(*) FROM redrive.redrive_schema_history")).isPositive();
        try (Redrive redrive = Redrive.builder(PostgresStore.builder(app).build()).build()) {
          assertThat(redrive.stats("emails").total()).as("both messages were sent").isZero();
          assertThat(redrive.listQueues()).hasSize(2);
        }
      }
    } finally {
      TestPostgres.dropDatabase(database);
    }
  }

  private static long count(HikariDataSource app, String sql) throws Exception {
    try (Connection c = app.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
