package io.redrive.workflow;

import io.redrive.postgres.PostgresStore;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.testkit.TestPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.function.Supplier;

/** The two stores every workflow runtime test runs on, each giving fresh, isolated databases. */
public enum StoreKind {
  SQLITE {
    @Override
    public TestDb newDatabase() {
      try {
        Path dir = Files.createTempDirectory("redrive-wf-test");
        Path file = dir.resolve("redrive.db");
        return new TestDb(
            "sqlite|" + file,
            () -> SqliteStore.open(file, 4),
            () -> {},
            () -> {
              Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
              try (var s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 30000");
              }
              return c;
            });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  },
  POSTGRES {
    @Override
    public TestDb newDatabase() {
      String schema = TestPostgres.createSchema("wf");
      return new TestDb(
          "postgres|" + TestPostgres.adminUrl() + "|" + schema,
          () -> PostgresStore.builder(TestPostgres.adminUrl()).schema(schema).poolSize(4).build(),
          () -> TestPostgres.dropSchema(schema),
          () -> DriverManager.getConnection(TestPostgres.urlForSchema(schema)));
    }
  };

  public abstract TestDb newDatabase();

  /** Opens a store on the database an {@link TestDb#address()} names (in another JVM). */
  public static Store open(String address) {
    String[] p = address.split("\\|");
    return switch (p[0]) {
      case "sqlite" -> SqliteStore.open(Path.of(p[1]), 4);
      case "postgres" -> PostgresStore.builder(p[1]).schema(p[2]).poolSize(4).build();
      default -> throw new IllegalArgumentException("store address: " + address);
    };
  }

  /**
   * One fresh database; {@link #open()} may be called again to "restart" on the same data.
   *
   * @param address how another JVM opens it (see {@link StoreKind#open(String)})
   */
  public record TestDb(String address, Supplier<Store> opener, Runnable drop, Connector connector) {
    public Store open() {
      return opener.get();
    }

    /** A plain JDBC connection to the database, for test hooks; the caller closes it. */
    public Connection connect() {
      try {
        return connector.connect();
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Opens a JDBC connection. */
  @FunctionalInterface
  public interface Connector {
    Connection connect() throws SQLException;
  }
}
