package io.redrive.spring;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code redrive.*} properties of a Spring Boot application (docs/spring-boot.md lists them
 * with their defaults).
 */
@ConfigurationProperties("redrive")
public class RedriveProperties {
  /** Which store holds the queues. */
  public enum StoreKind {
    /** PostgreSQL on the application's DataSource when it has one, else an embedded SQLite file. */
    AUTO,
    /** PostgreSQL on the application's DataSource (which must exist). */
    POSTGRES,
    /** An embedded SQLite file in {@code redrive.sqlite.data-dir}. */
    SQLITE
  }

  /** What the store does with its schema on start. */
  public enum Migrations {
    /** Apply pending migrations (the default). */
    MIGRATE,
    /** Apply nothing; refuse to start unless the schema is current (migrations run elsewhere). */
    VALIDATE
  }

  /** Which store holds the queues: auto, postgres or sqlite. */
  private StoreKind store = StoreKind.AUTO;

  /** Whether the store applies pending migrations on start or only checks they were applied. */
  private Migrations migrations = Migrations.MIGRATE;

  /**
   * How long a completed message is remembered (repeated completes, dedupe keys of completed
   * messages); 0s turns it off, at most 7d.
   */
  private Duration completionWindow = Duration.ofMinutes(5);

  /**
   * Whether enqueues join the Spring-managed transaction in progress on the store's DataSource
   * (PostgreSQL on the application's DataSource only).
   */
  private boolean joinTransactions = true;

  private final Postgres postgres = new Postgres();
  private final Sqlite sqlite = new Sqlite();

  public StoreKind getStore() {
    return store;
  }

  public void setStore(StoreKind store) {
    this.store = store;
  }

  public Migrations getMigrations() {
    return migrations;
  }

  public void setMigrations(Migrations migrations) {
    this.migrations = migrations;
  }

  public Duration getCompletionWindow() {
    return completionWindow;
  }

  public void setCompletionWindow(Duration completionWindow) {
    this.completionWindow = completionWindow;
  }

  public boolean isJoinTransactions() {
    return joinTransactions;
  }

  public void setJoinTransactions(boolean joinTransactions) {
    this.joinTransactions = joinTransactions;
  }

  public Postgres getPostgres() {
    return postgres;
  }

  public Sqlite getSqlite() {
    return sqlite;
  }

  /** {@code redrive.postgres.*}. */
  public static class Postgres {
    /** The schema of Redrive's tables in the application's database. */
    private String schema = "redrive";

    public String getSchema() {
      return schema;
    }

    public void setSchema(String schema) {
      this.schema = schema;
    }
  }

  /** {@code redrive.sqlite.*}. */
  public static class Sqlite {
    /** The directory of the SQLite file redrive.db (created when missing). */
    private Path dataDir = Path.of("redrive-data");

    public Path getDataDir() {
      return dataDir;
    }

    public void setDataDir(Path dataDir) {
      this.dataDir = dataDir;
    }
  }
}
