package io.redrive.opentelemetry;

import io.redrive.postgres.PostgresStore;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.testkit.TestPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/** The two stores every tracing test runs on; each call opens a fresh, isolated database. */
public enum TestStores {
  SQLITE {
    @Override
    public Store open() {
      try {
        return SqliteStore.open(Files.createTempDirectory("redrive-otel").resolve("r.db"), 4);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  },
  POSTGRES {
    @Override
    public Store open() {
      return PostgresStore.builder(TestPostgres.adminUrl())
          .schema(TestPostgres.createSchema("otel"))
          .poolSize(4)
          .build();
    }
  };

  /** A store on a new, empty database (SQLite file or PostgreSQL schema). */
  public abstract Store open();
}
