package io.redrive.server;

import io.redrive.postgres.PostgresStore;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.testkit.TestPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The two stores every server test runs on, each giving fresh, isolated databases. */
enum StoreKind {
  SQLITE {
    @Override
    TestDb newDatabase() {
      try {
        Path dir = Files.createTempDirectory("redrive-server-test");
        Path file = dir.resolve("redrive.db");
        return new TestDb(() -> SqliteStore.open(file, 4), () -> {});
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  },
  POSTGRES {
    @Override
    TestDb newDatabase() {
      String schema = TestPostgres.createSchema("srv");
      return new TestDb(
          () -> PostgresStore.builder(TestPostgres.adminUrl()).schema(schema).poolSize(4).build(),
          () -> TestPostgres.dropSchema(schema));
    }
  };

  abstract TestDb newDatabase();

  /** One fresh database; {@link #open()} may be called again to "restart" on the same data. */
  record TestDb(java.util.function.Supplier<Store> opener, Runnable drop) {
    Store open() {
      return opener.get();
    }
  }
}
