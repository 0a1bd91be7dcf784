package io.redrive.testkit.migration;

import io.redrive.store.Store;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * What every JDBC {@link MigrationDatabase} shares: the application's data source, the stores
 * opened on it (closed with it) and reads of Redrive's place.
 */
public abstract class JdbcMigrationDatabase implements MigrationDatabase {
  private static final String HISTORY = "redrive_schema_history";

  private final DataSource application;
  private final String place;
  private final List<Store> stores = new ArrayList<>();

  /**
   * @param application the application's own data source
   * @param place the prefix naming a table in Redrive's place ({@code redrive.}), or empty
   */
  protected JdbcMigrationDatabase(DataSource application, String place) {
    this.application = application;
    this.place = place;
  }

  /** Remembers {@code store} so {@link #close()} closes it. */
  protected final synchronized Store keep(Store store) {
    stores.add(store);
    return store;
  }

  /** Closes every store opened here; then the subclass releases the database. */
  protected final synchronized void closeStores() {
    stores.forEach(Store::close);
  }

  /** The query counting tables named {@code ?} in Redrive's place. */
  protected abstract String countTablesSql();

  /** The query listing the index names of the table named {@code ?} in Redrive's place. */
  protected abstract String indexNamesSql();

  /**
   * Flyway over Redrive's migrations of this store, on {@link #applicationDataSource()}, with the
   * schema (if any) of Redrive's place; {@link #migrateThrough} adds the history table and target.
   */
  protected abstract FluentConfiguration redriveFlyway();

  @Override
  public void migrateThrough(String description) {
    String script = "__" + description + ".sql";
    MigrationInfo last =
        Arrays.stream(redriveFlyway().table(HISTORY).load().info().all())
            .filter(m -> m.getScript().endsWith(script))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no migration V<n>" + script));
    redriveFlyway().table(HISTORY).target(last.getVersion()).load().migrate();
  }

  @Override
  public List<String> redriveIndexes(String table) {
    List<String> names = new ArrayList<>();
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(indexNamesSql())) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    names.sort(null);
    return names;
  }

  @Override
  public String redriveTable(String table) {
    return place + table;
  }

  @Override
  public Connection connect() {
    try {
      return application.getConnection();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public DataSource applicationDataSource() {
    return application;
  }

  @Override
  public boolean redriveTableExists(String table) {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(countTablesSql())) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public List<String> historyScripts(String table) {
    List<String> scripts = new ArrayList<>();
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT script FROM "
                    + place
                    + table
                    + " WHERE version IS NOT NULL ORDER BY installed_rank")) {
      while (rs.next()) {
        scripts.add(rs.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return scripts;
  }
}
