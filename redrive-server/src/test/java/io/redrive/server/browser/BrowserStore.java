package io.redrive.server.browser;

import io.redrive.postgres.PostgresStore;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.testkit.DatabaseAddress;
import io.redrive.testkit.TestPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The two stores the browser tests run on, each giving a fresh database that a child-JVM worker can
 * open too (through {@link AttachedStores}). The browser package's own copy of the server tests'
 * package-private {@code StoreKind}, plus the database's address.
 */
public enum BrowserStore {
  /** A SQLite file in a new temporary directory. */
  SQLITE {
    @Override
    public Database newDatabase() {
      try {
        Path dir = Files.createTempDirectory("redrive-browser-test");
        Path file = dir.resolve("redrive.db");
        return new Database(
            AttachedStores.address(Map.of("store", "sqlite", "file", file.toString())),
            () -> Browser.deleteTree(dir));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  },
  /** A new schema on the test JVM's PostgreSQL (embedded, or {@code REDRIVE_PG_URL}). */
  POSTGRES {
    @Override
    public Database newDatabase() {
      String schema = TestPostgres.createSchema("ui");
      return new Database(
          AttachedStores.address(
              Map.of("store", "postgres", "url", TestPostgres.adminUrl(), "schema", schema)),
          () -> TestPostgres.dropSchema(schema));
    }
  };

  /** A fresh, empty database. */
  public abstract Database newDatabase();

  /** The lower-case name used in screenshot and worker names, e.g. {@code sqlite}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * One database: {@link #open()} opens a store on it (each call one more node), {@link #address()}
   * tells a child JVM how to open one, {@link #drop()} deletes it.
   */
  public record Database(DatabaseAddress address, Runnable drop) {
    /** Opens a store (its own connection pool) on this database, schema migrated. */
    public Store open() {
      return address.open();
    }
  }

  /** Opens the store an {@link AttachedStores} address describes. */
  static Store open(Map<String, String> properties) {
    String store = properties.get("store");
    if ("sqlite".equals(store)) {
      return SqliteStore.open(Path.of(properties.get("file")), 4);
    }
    if ("postgres".equals(store)) {
      return PostgresStore.builder(properties.get("url"))
          .schema(properties.get("schema"))
          .poolSize(4)
          .build();
    }
    throw new IllegalArgumentException("unknown store in address: " + properties);
  }
}
