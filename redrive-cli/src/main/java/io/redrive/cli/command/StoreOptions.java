package io.redrive.cli.command;

import io.redrive.server.config.ConfigLoader;
import io.redrive.server.config.ServerConfig;
import io.redrive.server.config.StoreSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The flags that choose a store and its config file, shared by the commands that open the database
 * themselves ({@code server}, {@code migrate}): {@code redrive.toml} ({@code --config}, else {@code
 * ./redrive.toml} when present, else the defaults), then the flags over it.
 */
public final class StoreOptions {
  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "The config file (default: ./redrive.toml when present).")
  Path config;

  @Option(
      names = "--store",
      paramLabel = "sqlite|postgres",
      description = "The store (default sqlite).")
  String store;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "SQLite data directory (default ./data).")
  Path dataDir;

  @Option(
      names = "--pg-url",
      paramLabel = "JDBC_URL",
      description = "PostgreSQL JDBC URL (implies --store postgres).")
  String pgUrl;

  @Option(names = "--pg-user", paramLabel = "USER", description = "PostgreSQL user.")
  String pgUser;

  @Option(
      names = "--pg-password",
      paramLabel = "PASSWORD",
      description = "PostgreSQL password (default: $REDRIVE_PG_PASSWORD; prefer the variable).")
  String pgPassword;

  @Option(
      names = "--pg-schema",
      paramLabel = "SCHEMA",
      description = "PostgreSQL schema for Redrive's tables.")
  String pgSchema;

  /** The file's settings (or the defaults) with the store flags applied. */
  ServerConfig settings(Map<String, String> environment) {
    ServerConfig settings = ServerConfig.defaults();
    Path file = config;
    if (file == null && Files.isRegularFile(Path.of(ConfigLoader.DEFAULT_FILE_NAME))) {
      file = Path.of(ConfigLoader.DEFAULT_FILE_NAME);
    }
    if (file != null) {
      settings = new ConfigLoader(environment::get).load(file);
    }
    StoreSettings store = store(settings.store(), environment);
    return settings.withStore(store.withMigrations(settings.store().migrations()));
  }

  private StoreSettings store(StoreSettings current, Map<String, String> environment) {
    StoreSettings.Kind kind = current.kind();
    if (store != null) {
      switch (store.trim().toLowerCase(Locale.ROOT)) {
        case "sqlite":
          kind = StoreSettings.Kind.SQLITE;
          break;
        case "postgres":
        case "postgresql":
          kind = StoreSettings.Kind.POSTGRES;
          break;
        default:
          throw new IllegalArgumentException(
              "--store: expected sqlite or postgres, was \"" + store + "\"");
      }
    } else if (pgUrl != null) {
      kind = StoreSettings.Kind.POSTGRES;
    }
    boolean same = kind == current.kind();
    if (kind == StoreSettings.Kind.SQLITE) {
      if (pgUrl != null || pgUser != null || pgPassword != null || pgSchema != null) {
        throw new IllegalArgumentException("--pg-* flags need --store postgres");
      }
      Path dir = dataDir != null ? dataDir : same ? current.dataDir() : Path.of("data");
      return new StoreSettings(kind, dir, null, null, null, null, same ? current.poolSize() : 4);
    }
    if (dataDir != null) {
      throw new IllegalArgumentException("--data-dir is for SQLite, not --store postgres");
    }
    String password = pgPassword != null ? pgPassword : environment.get("REDRIVE_PG_PASSWORD");
    StoreSettings base = same ? current : StoreSettings.postgres(null, null, null, null);
    return new StoreSettings(
        kind,
        null,
        pgUrl != null ? pgUrl : base.pgUrl(),
        pgUser != null ? pgUser : base.pgUser(),
        password != null ? password : base.pgPassword(),
        pgSchema != null ? pgSchema : base.pgSchema(),
        base.poolSize());
  }
}
