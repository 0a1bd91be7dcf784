package io.redrive.postgres;

import io.redrive.store.Store;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.TestDatabase;
import io.redrive.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A fresh schema per test on the test JVM's one PostgreSQL server. */
public final class PostgresFixture implements StoreFixture {
  public static final PostgresFixture INSTANCE = new PostgresFixture();

  private PostgresFixture() {}

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public TestDatabase newDatabase() {
    return new Database(TestPostgres.createSchema("t"));
  }

  private static final class Database implements TestDatabase {
    private final String schema;
    private final List<Store> stores = new ArrayList<>();

    Database(String schema) {
      this.schema = schema;
    }

    @Override
    public synchronized Store openStore() {
      Store store =
          PostgresStore.builder(TestPostgres.adminUrl()).schema(schema).poolSize(4).build();
      stores.add(store);
      return store;
    }

    @Override
    public Connection connect() {
      try {
        return DriverManager.getConnection(TestPostgres.urlForSchema(schema));
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public synchronized void close() {
      stores.forEach(Store::close);
      TestPostgres.dropSchema(schema);
    }
  }
}
