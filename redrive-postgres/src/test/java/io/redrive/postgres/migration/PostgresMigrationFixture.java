package io.redrive.postgres.migration;

import io.redrive.jdbc.MigrationMode;
import io.redrive.postgres.PostgresStore;
import io.redrive.store.Store;
import io.redrive.testkit.TestPostgres;
import io.redrive.testkit.migration.JdbcMigrationDatabase;
import io.redrive.testkit.migration.MigrationDatabase;
import io.redrive.testkit.migration.MigrationFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A database of its own per test on the test JVM's PostgreSQL server; Redrive's place is schema
 * redrive.
 */
public final class PostgresMigrationFixture implements MigrationFixture {
  public static final PostgresMigrationFixture INSTANCE = new PostgresMigrationFixture();

  private PostgresMigrationFixture() {}

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public MigrationDatabase newDatabase() {
    return new Database(TestPostgres.createDatabase("m"));
  }

  /** Runs a classpath SQL resource on {@code c}. */
  static void runResource(Connection c, String resource) throws SQLException {
    try (InputStream in =
            PostgresMigrationFixture.class.getClassLoader().getResourceAsStream(resource);
        Statement s = c.createStatement()) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not on the classpath");
      }
      s.execute(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static final class Database extends JdbcMigrationDatabase {
    private final String name;
    private final String url;

    Database(String name) {
      this(name, TestPostgres.urlForDatabase(name));
    }

    private Database(String name, String url) {
      super(plain(url), PostgresStore.DEFAULT_SCHEMA + ".");
      this.name = name;
      this.url = url;
    }

    private static DataSource plain(String url) {
      PGSimpleDataSource source = new PGSimpleDataSource();
      source.setURL(url);
      return source;
    }

    String url() {
      return url;
    }

    @Override
    public Store open() {
      return keep(PostgresStore.builder(url).poolSize(2).build());
    }

    @Override
    public Store openValidating() {
      return keep(
          PostgresStore.builder(url).poolSize(2).migrationMode(MigrationMode.VALIDATE).build());
    }

    @Override
    public Store openOnApplicationDataSource() {
      return keep(PostgresStore.builder(applicationDataSource()).build());
    }

    @Override
    public List<String> migrate() {
      return PostgresStore.builder(url).poolSize(1).migrate();
    }

    @Override
    public String pendingSql() {
      return PostgresStore.builder(url).poolSize(1).pendingSql();
    }

    @Override
    public void runScript(String sql) {
      try (Connection c = connect();
          Statement s = c.createStatement()) {
        s.execute(sql);
      } catch (SQLException e) {
        throw new IllegalStateException("the script failed: " + e.getMessage(), e);
      }
    }

    @Override
    public boolean sharesApplicationSchema() {
      return false;
    }

    @Override
    public void createEarlierLayout() {
      // Redrive 0.1 with .schema("redrive"): tables and Flyway's default history in that schema.
      Flyway.configure()
          .dataSource(applicationDataSource())
          .schemas(PostgresStore.DEFAULT_SCHEMA)
          .defaultSchema(PostgresStore.DEFAULT_SCHEMA)
          .locations("classpath:db/redrive/postgres")
          .target("3")
          .load()
          .migrate();
      try (Connection c = connect()) {
        try (Statement s = c.createStatement()) {
          s.execute("SET search_path TO " + PostgresStore.DEFAULT_SCHEMA);
        }
        runResource(c, "io/redrive/testkit/migration/earlier-data.sql");
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    protected String countTablesSql() {
      return "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
          + PostgresStore.DEFAULT_SCHEMA
          + "' AND table_name = ?";
    }

    @Override
    protected String indexNamesSql() {
      return "SELECT indexname FROM pg_indexes WHERE schemaname = '"
          + PostgresStore.DEFAULT_SCHEMA
          + "' AND tablename = ?";
    }

    @Override
    protected FluentConfiguration redriveFlyway() {
      return Flyway.configure()
          .dataSource(applicationDataSource())
          .schemas(PostgresStore.DEFAULT_SCHEMA)
          .defaultSchema(PostgresStore.DEFAULT_SCHEMA)
          .createSchemas(true)
          .locations("classpath:db/redrive/postgres");
    }

    @Override
    public void close() {
      closeStores();
      TestPostgres.dropDatabase(name);
    }
  }
}
