package io.redrive.sqlite;

import io.redrive.store.Store;
import io.redrive.testkit.DatabaseAddress;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import javax.sql.DataSource;

/** Fresh SQLite files in a temporary directory, one per test. */
public final class SqliteFixture implements StoreFixture {
  public static final SqliteFixture INSTANCE = new SqliteFixture();

  private SqliteFixture() {}

  @Override
  public String name() {
    return "sqlite";
  }

  @Override
  public TestDatabase newDatabase() {
    try {
      Path dir = Files.createTempDirectory("redrive-sqlite-test");
      return new Database(dir.resolve(SqliteStore.FILE_NAME), dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Opens the file named by property {@code file} (see {@link Database#address()}). */
  @Override
  public Store attach(Map<String, String> properties) {
    String file = properties.get("file");
    if (file == null) {
      throw new IllegalArgumentException("sqlite address: property \"file\" is required");
    }
    return SqliteStore.open(Path.of(file), 4);
  }

  private static final class Database implements TestDatabase {
    private final Path file;
    private final Path dir;
    private final List<Store> stores = new ArrayList<>();

    Database(Path file, Path dir) {
      this.file = file;
      this.dir = dir;
    }

    @Override
    public synchronized Store openStore() {
      Store store = SqliteStore.open(file, 4);
      stores.add(store);
      return store;
    }

    @Override
    public synchronized Store openStore(UnaryOperator<DataSource> wrap) {
      Store store = SqliteStore.builder(file).poolSize(4).wrapDataSource(wrap).build();
      stores.add(store);
      return store;
    }

    @Override
    public DatabaseAddress address() {
      return new DatabaseAddress(
          SqliteFixture.class.getName(), Map.of("file", file.toAbsolutePath().toString()));
    }

    @Override
    public Connection connect() {
      try {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (var s = c.createStatement()) {
          s.execute("PRAGMA busy_timeout = 30000");
        }
        return c;
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
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
