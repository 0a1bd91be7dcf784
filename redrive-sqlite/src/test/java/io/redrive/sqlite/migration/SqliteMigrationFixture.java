package io.redrive.sqlite.migration;

import io.redrive.jdbc.MigrationMode;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.testkit.migration.MigrationDatabase;
import io.redrive.testkit.migration.MigrationFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * A new SQLite file per test; Redrive's place is the file's main schema, shared with the
 * application.
 */
public final class SqliteMigrationFixture implements MigrationFixture {
  public static final SqliteMigrationFixture INSTANCE = new SqliteMigrationFixture();

  private SqliteMigrationFixture() {}

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public MigrationDatabase newDatabase() {
    try {
      Path dir = Files.createTempDirectory("redrive-sqlite-migration");
      return new Database(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Splits a script into statements at semicolons that end a line; drops comment lines. */
  static List<String> statements(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : script.split("\n")) {
      if (line.strip().startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      if (line.strip().endsWith(";")) {
        out.add(current.toString().strip());
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      out.add(current.toString().strip());
    }
    return out;
  }

  static final class Database implements MigrationDatabase {
    private final Path dir;
    private final Path file;
    private final SQLiteDataSource application;
    private final List<Store> stores = new ArrayList<>();

    Database(Path dir) {
      this.dir = dir;
      this.file = dir.resolve(SqliteStore.FILE_NAME);
      SQLiteConfig config = new SQLiteConfig();
      config.setBusyTimeout(30_000);
      this.application = new SQLiteDataSource(config);
      application.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
    }

    @Override
    public synchronized Store open() {
      return keep(SqliteStore.builder(file).poolSize(2).build());
    }

    @Override
    public synchronized Store openValidating() {
      return keep(
          SqliteStore.builder(file).poolSize(2).migrationMode(MigrationMode.VALIDATE).build());
    }

    @Override
    public Store openOnApplicationDataSource() {
      return open();
    }

    private Store keep(Store store) {
      stores.add(store);
      return store;
    }

    @Override
    public List<String> migrate() {
      return SqliteStore.builder(file).poolSize(1).migrate();
    }

    @Override
    public String pendingSql() {
      return SqliteStore.builder(file).poolSize(1).pendingSql();
    }

    @Override
    public void runScript(String sql) {
      try (Connection c = connect()) {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
          for (String statement : statements(sql)) {
            s.execute(statement);
          }
        }
        c.commit();
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
      return true;
    }

    @Override
    public void createEarlierLayout() {
      Flyway.configure()
          .dataSource(application)
          .locations("classpath:db/redrive/sqlite")
          .target("2")
          .load()
          .migrate();
      try (InputStream in =
          getClass()
              .getClassLoader()
              .getResourceAsStream("io/redrive/testkit/migration/earlier-data.sql")) {
        runScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public boolean redriveTableExists(String table) {
      try (Connection c = connect();
          PreparedStatement ps =
              c.prepareStatement(
                  "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?")) {
        ps.setString(1, table);
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
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
