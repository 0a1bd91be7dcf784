package io.redrive.postgres.migration;

import io.redrive.jdbc.MigrationMode;
import io.redrive.postgres.PostgresStore;
import io.redrive.store.Store;
import io.redrive.testkit.TestPostgres;
import io.redrive.testkit.migration.MigrationDatabase;
import io.redrive.testkit.migration.MigrationFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
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

  static final class Database implements MigrationDatabase {
    private final String name;
    private final String url;
    private final PGSimpleDataSource application = new PGSimpleDataSource();
    private final List<Store> stores = new ArrayList<>();

    Database(String name) {
      this.name = name;
      this.url = TestPostgres.urlForDatabase(name);
      application.setURL(url);
    }

    String url() {
      return url;
    }

    @Override
    public synchronized Store open() {
      return keep(PostgresStore.builder(url).poolSize(2).build());
    }

    @Override
    public synchronized Store openValidating() {
      return keep(
          PostgresStore.builder(url).poolSize(2).migrationMode(MigrationMode.VALIDATE).build());
    }

    @Override
    public synchronized Store openOnApplicationDataSource() {
      return keep(PostgresStore.builder(application).build());
    }

    private Store keep(Store store) {
      stores.add(store);
      return store;
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
    public Connection connect() {
      try {
        return application.getConnection();
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public DataSource applicationDataSource() {
      return application;
    }

    @Override
    public boolean sharesApplicationSchema() {
      return false;
    }

    @Override
    public void createEarlierLayout() {
      // Redrive 0.1 with .schema("redrive"): tables and Flyway's default history in that schema.
      Flyway.configure()
          .dataSource(application)
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
    public boolean redriveTableExists(String table) {
      try (Connection c = connect();
          PreparedStatement ps =
              c.prepareStatement(
                  "SELECT COUNT(*) FROM information_schema.tables"
                      + " WHERE table_schema = ? AND table_name = ?")) {
        ps.setString(1, PostgresStore.DEFAULT_SCHEMA);
        ps.setString(2, table);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1) > 0;
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public List<String> historyScripts(String table) {
      List<String> scripts = new ArrayList<>();
      try (Connection c = connect();
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT script FROM "
                      + PostgresStore.DEFAULT_SCHEMA
                      + "."
                      + table
                      + " WHERE version IS NOT NULL ORDER BY installed_rank")) {
        while (rs.next()) {
          scripts.add(rs.getString(1));
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      return scripts;
    }

    @Override
    public synchronized void close() {
      stores.forEach(Store::close);
      TestPostgres.dropDatabase(name);
    }
  }
}
