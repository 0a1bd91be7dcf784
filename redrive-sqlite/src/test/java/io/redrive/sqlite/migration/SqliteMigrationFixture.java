package io.redrive.sqlite.migration;

import io.redrive.jdbc.MigrationMode;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.testkit.migration.JdbcMigrationDatabase;
import io.redrive.testkit.migration.MigrationDatabase;
import io.redrive.testkit.migration.MigrationFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
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

  static final class Database extends JdbcMigrationDatabase {
    private final Path dir;
    private final Path file;

    Database(Path dir) {
      super(plain(dir.resolve(SqliteStore.FILE_NAME)), "");
      this.dir = dir;
      this.file = dir.resolve(SqliteStore.FILE_NAME);
    }

    private static DataSource plain(Path file) {
      SQLiteConfig config = new SQLiteConfig();
      config.setBusyTimeout(30_000);
      SQLiteDataSource source = new SQLiteDataSource(config);
      source.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
      return source;
    }

    @Override
    public Store open() {
      return keep(SqliteStore.builder(file).poolSize(2).build());
    }

    @Override
    public Store openValidating() {
      return keep(
          SqliteStore.builder(file).poolSize(2).migrationMode(MigrationMode.VALIDATE).build());
    }

    @Override
    public Store openOnApplicationDataSource() {
      return open();
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
    public boolean sharesApplicationSchema() {
      return true;
    }

    @Override
    public void createEarlierLayout() {
      Flyway.configure()
          .dataSource(applicationDataSource())
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
    protected String countTablesSql() {
      return "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?";
    }

    @Override
    protected String indexNamesSql() {
      return "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?";
    }

    @Override
    protected FluentConfiguration redriveFlyway() {
      return Flyway.configure()
          .dataSource(applicationDataSource())
          .locations("classpath:db/redrive/sqlite");
    }

    @Override
    public void close() {
      closeStores();
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
