package io.redrive.testkit.migration;

import io.redrive.store.Store;
import java.sql.Connection;
import java.util.List;
import javax.sql.DataSource;

/**
 * One empty database for one migration test. Stores opened here are closed with it. "Redrive's
 * place" is where the store keeps its tables by default: PostgreSQL's {@code redrive} schema,
 * SQLite's file.
 */
public interface MigrationDatabase extends AutoCloseable {

  /** Opens a store with the store's defaults (migrating on open). */
  Store open();

  /** Opens a store that validates the schema instead of migrating it. */
  Store openValidating();

  /**
   * Opens a store on {@link #applicationDataSource()} where the store accepts one (PostgreSQL);
   * otherwise as {@link #open()}.
   */
  Store openOnApplicationDataSource();

  /** Applies pending migrations without opening a store; the versions applied. */
  List<String> migrate();

  /** The SQL {@code redrive migrate --print-sql} prints for this database. */
  String pendingSql();

  /** Runs an operator's SQL script (as a DBA would run {@link #pendingSql()}). */
  void runScript(String sql);

  /** A plain connection as the application has it: default schema, default search path. */
  Connection connect();

  /** The application's own data source (never closed by Redrive; closed with this database). */
  DataSource applicationDataSource();

  /**
   * True when Redrive's tables share the application's default schema (SQLite's one file), so an
   * application's Flyway started after Redrive must baseline, as Flyway asks of any non-empty
   * schema.
   */
  boolean sharesApplicationSchema();

  /**
   * Lays out the schema as Redrive 0.1 left it in Redrive's place, history in Flyway's default
   * {@code flyway_schema_history}, with the rows of {@code earlier-data.sql} (queue {@code legacy},
   * one ready message that failed once).
   */
  void createEarlierLayout();

  /**
   * Applies Redrive's own migrations, history in {@code redrive_schema_history} as the store keeps
   * it, up to and including the one whose script is {@code V<n>__<description>.sql}: the layout a
   * release that ended there left, for an upgrade test.
   */
  void migrateThrough(String description);

  /** True when {@code table} exists in Redrive's place. */
  boolean redriveTableExists(String table);

  /** The names of the indexes of {@code table} in Redrive's place, sorted. */
  List<String> redriveIndexes(String table);

  /** {@code table} as a plain connection ({@link #connect()}) names it in Redrive's place. */
  String redriveTable(String table);

  /** The scripts recorded in history table {@code table} of Redrive's place, in install order. */
  List<String> historyScripts(String table);

  @Override
  void close();
}
