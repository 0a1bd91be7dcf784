package io.redrive.postgres;

import io.redrive.store.Store;
import io.redrive.testkit.DatabaseAddress;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.TestDatabase;
import io.redrive.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

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

  /**
   * Opens the schema named by property {@code schema} on the server of property {@code url} (the
   * creating JVM's {@link TestPostgres#adminUrl()}); never starts a server of its own.
   */
  @Override
  public Store attach(Map<String, String> properties) {
    String url = properties.get("url");
    String schema = properties.get("schema");
    if (url == null || schema == null) {
      throw new IllegalArgumentException(
          "postgres address: properties \"url\" and \"schema\" are required, got "
              + properties.keySet());
    }
    return PostgresStore.builder(url).schema(schema).poolSize(4).build();
  }

  @Override
  public Store attach(Map<String, String> properties, UnaryOperator<DataSource> wrap) {
    if (properties.get("url") == null || properties.get("schema") == null) {
      throw new IllegalArgumentException(
          "postgres address: properties \"url\" and \"schema\" are required");
    }
    PGSimpleDataSource base = new PGSimpleDataSource();
    base.setUrl(properties.get("url"));
    return PostgresStore.builder(wrap.apply(base)).schema(properties.get("schema")).build();
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
    public synchronized Store openStore(UnaryOperator<DataSource> wrap) {
      PGSimpleDataSource base = new PGSimpleDataSource();
      base.setUrl(TestPostgres.adminUrl());
      Store store = PostgresStore.builder(wrap.apply(base)).schema(schema).build();
      stores.add(store);
      return store;
    }

    @Override
    public DatabaseAddress address() {
      return new DatabaseAddress(
          PostgresFixture.class.getName(),
          Map.of("url", TestPostgres.adminUrl(), "schema", schema));
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
