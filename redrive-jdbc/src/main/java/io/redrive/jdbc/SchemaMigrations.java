package io.redrive.jdbc;

import io.redrive.error.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.output.ValidateResult;

/**
 * A store's schema migrations: Flyway over the store's scripts with Redrive's own history table
 * ({@value #HISTORY_TABLE}), so Redrive never meets an application's Flyway history.
 *
 * <p>Implementation notes. Up to version 0.1 the stores kept their history in Flyway's default
 * table ({@value #LEGACY_HISTORY_TABLE}), which an application's own Flyway also uses. On open, a
 * schema whose Redrive tables are recorded there is adopted: the new history starts with a baseline
 * at the highest version recorded, Redrive's rows leave the old table, and the old table is dropped
 * if nothing else was in it. A schema holding other tables but no Redrive history is baselined at
 * version 0, so every migration runs beside the application's tables. Not thread-safe; used once
 * per open.
 */
public final class SchemaMigrations {
  /** Redrive's migration history table. */
  public static final String HISTORY_TABLE = "redrive_schema_history";

  /** Flyway's default history table, where Redrive kept its history before 0.2. */
  public static final String LEGACY_HISTORY_TABLE = "flyway_schema_history";

  private final DataSource dataSource;
  private final String location;
  private final String schema;
  private final String where;

  /**
   * @param location the classpath folder of the store's scripts ({@code db/redrive/postgres})
   * @param schema the schema holding Redrive's tables, or null for the connection's default
   * @param where the database as named in errors ({@code PostgreSQL schema "redrive"})
   */
  public SchemaMigrations(DataSource dataSource, String location, String schema, String where) {
    this.dataSource = dataSource;
    this.location = location;
    this.schema = schema;
    this.where = where;
  }

  /** Applies {@code mode}: migrates, or validates and refuses a schema not at this version. */
  public void apply(MigrationMode mode) {
    if (mode == MigrationMode.VALIDATE) {
      validate();
    } else {
      migrate();
    }
  }

  /**
   * Creates the schema if missing, adopts an earlier history, and applies every pending migration.
   *
   * @return the versions applied, oldest first (empty when the schema was current)
   */
  public List<String> migrate() {
    try {
      Optional<MigrationVersion> legacy = legacyVersion();
      FluentConfiguration config = configuration().baselineOnMigrate(true);
      if (legacy.isPresent()) {
        config =
            config
                .baselineVersion(legacy.get())
                .baselineDescription("adopted from " + LEGACY_HISTORY_TABLE);
      } else {
        config = config.baselineVersion("0").baselineDescription("tables of others present");
      }
      MigrateResult result = config.load().migrate();
      if (legacy.isPresent()) {
        forgetLegacyHistory();
      }
      return result.migrations.stream().map(m -> m.version).collect(Collectors.toList());
    } catch (FlywayException | SQLException e) {
      throw new StoreException(
          "migrating the Redrive schema of " + where + " failed: " + e.getMessage(),
          e instanceof SQLException s ? s.getSQLState() : null,
          false,
          e);
    }
  }

  /**
   * Changes nothing; throws a {@link StoreException} naming what is missing unless the schema is at
   * exactly the version this build needs.
   */
  public void validate() {
    try {
      if (legacyVersion().isPresent()) {
        throw new StoreException(
            where
                + " records its Redrive migrations in "
                + LEGACY_HISTORY_TABLE
                + " (an earlier Redrive); run `redrive migrate` once to move them to "
                + HISTORY_TABLE,
            null,
            false,
            null);
      }
      Flyway flyway = configuration().load();
      MigrationInfoService info = flyway.info();
      MigrationInfo[] pending = info.pending();
      if (pending.length > 0) {
        MigrationInfo current = info.current();
        throw new StoreException(
            where
                + (current == null
                    ? " has no Redrive tables"
                    : " is at Redrive schema version " + current.getVersion())
                + "; this Redrive needs version "
                + pending[pending.length - 1].getVersion()
                + ", missing "
                + Arrays.stream(pending)
                    .map(m -> "V" + m.getVersion() + " (" + m.getDescription() + ")")
                    .collect(Collectors.joining(", "))
                + ". Apply them with `redrive migrate` (or run the SQL of `redrive migrate"
                + " --print-sql`), or open the store with migrations applied",
            null,
            false,
            null);
      }
      ValidateResult result = flyway.validateWithResult();
      if (!result.validationSuccessful) {
        throw new StoreException(
            "the Redrive schema of "
                + where
                + " does not match this Redrive's migrations: "
                + result.getAllErrorMessages(),
            null,
            false,
            null);
      }
    } catch (FlywayException e) {
      throw new StoreException(
          "validating the Redrive schema of " + where + " failed: " + e.getMessage(),
          null,
          false,
          e);
    }
  }

  /** The migrations not yet applied, oldest first. */
  public List<MigrationInfo> pending() {
    return List.of(configuration().load().info().pending());
  }

  /**
   * The SQL that brings the schema to this build's version, for an operator to review and run: each
   * pending script followed by the row that records it in {@value #HISTORY_TABLE}, which the store
   * then accepts in {@link MigrationMode#VALIDATE}.
   *
   * @param preamble statements that create the schema if missing and make it the session's default
   *     (store-specific; empty where there is no schema)
   * @param now the database's expression for the current time, as a column default
   */
  public String pendingSql(String preamble, String now) {
    if (legacyVersion().isPresent()) {
      throw new StoreException(
          where
              + " records its Redrive migrations in "
              + LEGACY_HISTORY_TABLE
              + " (an earlier Redrive); run `redrive migrate` once instead of applying SQL",
          null,
          false,
          null);
    }
    List<MigrationInfo> pending = pending();
    StringBuilder sql = new StringBuilder();
    sql.append("-- Redrive schema migrations for ").append(where).append(": ");
    if (pending.isEmpty()) {
      return sql.append("nothing pending, the schema is current.\n").toString();
    }
    sql.append(pending.stream().map(m -> "V" + m.getVersion()).collect(Collectors.joining(", ")))
        .append("\n-- Run as one script; each migration records itself in ")
        .append(HISTORY_TABLE)
        .append(".\n")
        .append(preamble.isBlank() ? "" : preamble.strip() + "\n")
        .append(historyTable(now))
        .append("\n");
    for (MigrationInfo m : pending) {
      sql.append("\n-- V")
          .append(m.getVersion())
          .append(": ")
          .append(m.getDescription())
          .append(" (")
          .append(m.getScript())
          .append(")\n")
          .append(script(m.getScript()).strip())
          .append("\n")
          .append("INSERT INTO ")
          .append(HISTORY_TABLE)
          .append(" (installed_rank, version, description, type, script, checksum, installed_by,")
          .append(" execution_time, success) SELECT COALESCE(MAX(installed_rank), 0) + 1, ")
          .append(literal(m.getVersion().getVersion()))
          .append(", ")
          .append(literal(m.getDescription()))
          .append(", 'SQL', ")
          .append(literal(m.getScript()))
          .append(", ")
          .append(m.getChecksum())
          .append(", 'redrive migrate --print-sql', 0, TRUE FROM ")
          .append(HISTORY_TABLE)
          .append(";\n");
    }
    return sql.toString();
  }

  /** Flyway's history table, made if missing, so the recorded rows are Flyway's own. */
  private static String historyTable(String now) {
    return "CREATE TABLE IF NOT EXISTS "
        + HISTORY_TABLE
        + " (\n"
        + "  installed_rank INT NOT NULL PRIMARY KEY,\n"
        + "  version VARCHAR(50),\n"
        + "  description VARCHAR(200) NOT NULL,\n"
        + "  type VARCHAR(20) NOT NULL,\n"
        + "  script VARCHAR(1000) NOT NULL,\n"
        + "  checksum INTEGER,\n"
        + "  installed_by VARCHAR(100) NOT NULL,\n"
        + "  installed_on TIMESTAMP NOT NULL DEFAULT "
        + now
        + ",\n"
        + "  execution_time INTEGER NOT NULL,\n"
        + "  success BOOLEAN NOT NULL\n"
        + ");\n"
        + "CREATE INDEX IF NOT EXISTS "
        + HISTORY_TABLE
        + "_s_idx ON "
        + HISTORY_TABLE
        + " (success);";
  }

  private FluentConfiguration configuration() {
    FluentConfiguration config =
        Flyway.configure()
            .dataSource(dataSource)
            .locations("classpath:" + location)
            .table(HISTORY_TABLE)
            .cleanDisabled(true);
    if (schema != null) {
      config = config.schemas(schema).defaultSchema(schema).createSchemas(true);
    }
    return config;
  }

  private String script(String name) {
    String resource = location + "/" + name;
    try (InputStream in = SchemaMigrations.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "migration script " + resource + " is not on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read migration script " + resource, e);
    }
  }

  /**
   * The highest version of Redrive's migrations recorded in {@value #LEGACY_HISTORY_TABLE} when the
   * schema has no {@value #HISTORY_TABLE} yet; empty otherwise.
   */
  private Optional<MigrationVersion> legacyVersion() {
    // Flyway takes connections of its own: ask it before holding one here.
    Set<String> ours = ourScripts();
    try (Connection c = dataSource.getConnection()) {
      if (tableExists(c, HISTORY_TABLE) || !tableExists(c, LEGACY_HISTORY_TABLE)) {
        return Optional.empty();
      }
      MigrationVersion highest = null;
      try (Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT version, script FROM "
                      + qualified(LEGACY_HISTORY_TABLE)
                      + " WHERE success = TRUE AND version IS NOT NULL")) {
        while (rs.next()) {
          if (ours.contains(rs.getString(2))) {
            MigrationVersion v = MigrationVersion.fromVersion(rs.getString(1));
            if (highest == null || v.compareTo(highest) > 0) {
              highest = v;
            }
          }
        }
      }
      return Optional.ofNullable(highest);
    } catch (SQLException e) {
      throw new StoreException(
          "reading the migration history of " + where + " failed: " + e.getMessage(),
          e.getSQLState(),
          false,
          e);
    }
  }

  /**
   * Removes Redrive's rows from the old history, and drops the table when nothing but Redrive's
   * rows (and Flyway's note that it created the schema, made for Redrive) was recorded there.
   */
  private void forgetLegacyHistory() throws SQLException {
    Set<String> ours = ourScripts();
    String legacy = qualified(LEGACY_HISTORY_TABLE);
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        long others = 0;
        try (Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT type, script FROM " + legacy)) {
          while (rs.next()) {
            if (!"SCHEMA".equals(rs.getString(1)) && !ours.contains(rs.getString(2))) {
              others++;
            }
          }
        }
        if (others == 0) {
          try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + legacy);
          }
        } else {
          try (PreparedStatement ps =
              c.prepareStatement("DELETE FROM " + legacy + " WHERE script = ?")) {
            for (String script : ours) {
              ps.setString(1, script);
              ps.addBatch();
            }
            ps.executeBatch();
          }
        }
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    }
  }

  private Set<String> ourScripts() {
    Set<String> scripts = new TreeSet<>();
    for (MigrationInfo m : configuration().load().info().all()) {
      if (m.getScript() != null) {
        scripts.add(m.getScript());
      }
    }
    return scripts;
  }

  private boolean tableExists(Connection c, String table) throws SQLException {
    DatabaseMetaData meta = c.getMetaData();
    List<String> found = new ArrayList<>();
    try (ResultSet rs = meta.getTables(null, schema, table, new String[] {"TABLE"})) {
      while (rs.next()) {
        found.add(rs.getString("TABLE_NAME"));
      }
    }
    return found.stream().anyMatch(table::equalsIgnoreCase);
  }

  private String qualified(String table) {
    return schema == null ? table : schema + "." + table;
  }

  private static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
