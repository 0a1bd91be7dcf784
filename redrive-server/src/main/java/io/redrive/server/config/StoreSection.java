package io.redrive.server.config;

import io.redrive.jdbc.MigrationMode;
import java.nio.file.Path;
import java.util.List;

/** Reads the {@code [store]} table into {@link StoreSettings}. */
final class StoreSection {
  static final List<String> FIELDS =
      List.of(
          "kind",
          "migrations",
          "dataDir",
          "pgUrl",
          "pgUser",
          "pgPassword",
          "pgPasswordEnv",
          "pgSchema",
          "poolSize");

  private StoreSection() {}

  /**
   * The store of the {@code [store]} table {@code n}, its relative data directory resolved against
   * {@code base} (the file's directory, or null to leave it relative).
   */
  static StoreSettings read(ConfigNode n, Path base, Secrets secrets) {
    return storeWithoutMigrations(n, base, secrets)
        .withMigrations(migrations(n.child("migrations")));
  }

  private static MigrationMode migrations(ConfigNode n) {
    if (!n.present()) {
      return MigrationMode.MIGRATE;
    }
    String mode = n.string();
    if (mode.equalsIgnoreCase("migrate")) {
      return MigrationMode.MIGRATE;
    }
    if (mode.equalsIgnoreCase("validate")) {
      return MigrationMode.VALIDATE;
    }
    throw n.error("use \"migrate\" or \"validate\", was \"" + mode + "\"");
  }

  private static StoreSettings storeWithoutMigrations(ConfigNode n, Path base, Secrets secrets) {
    n.allowOnly(FIELDS);
    ConfigNode kindNode = n.child("kind");
    StoreSettings.Kind kind = StoreSettings.Kind.SQLITE;
    if (kindNode.present()) {
      String k = kindNode.string();
      if (k.equalsIgnoreCase("sqlite")) {
        kind = StoreSettings.Kind.SQLITE;
      } else if (k.equalsIgnoreCase("postgres")) {
        kind = StoreSettings.Kind.POSTGRES;
      } else {
        throw kindNode.error("unknown store kind \"" + k + "\" (use sqlite or postgres)");
      }
    }
    ConfigNode pool = n.child("poolSize");
    if (kind == StoreSettings.Kind.SQLITE) {
      for (String pg : List.of("pgUrl", "pgUser", "pgPassword", "pgPasswordEnv", "pgSchema")) {
        if (n.child(pg).present()) {
          throw n.child(pg).error("only used when store.kind = \"postgres\"");
        }
      }
      StoreSettings s = StoreSettings.sqlite(Path.of("data"));
      Path dataDir = n.child("dataDir").present() ? dataDir(n.child("dataDir")) : s.dataDir();
      int poolSize = pool.present() ? pool.integer(1, 64) : s.poolSize();
      return resolve(new StoreSettings(kind, dataDir, null, null, null, null, poolSize), base);
    }
    if (n.child("dataDir").present()) {
      throw n.child("dataDir").error("only used when store.kind = \"sqlite\"");
    }
    ConfigNode url = n.child("pgUrl");
    if (!url.present()) {
      throw url.error("is required when store.kind = \"postgres\"");
    }
    String pgUrl = url.string();
    if (!pgUrl.startsWith("jdbc:postgresql:")) {
      throw url.error("must be a JDBC url starting with jdbc:postgresql:");
    }
    String user = n.child("pgUser").present() ? n.child("pgUser").nonEmptyString() : null;
    String password = secrets.secret(n.child("pgPassword"), n.child("pgPasswordEnv"), false);
    String schema = null;
    ConfigNode schemaNode = n.child("pgSchema");
    if (schemaNode.present()) {
      schema = schemaNode.string();
      if (!schema.matches("[a-z_][a-z0-9_]{0,62}")) {
        throw schemaNode.error("use 1-63 characters of a-z, 0-9 and '_', was \"" + schema + "\"");
      }
    }
    StoreSettings d = StoreSettings.postgres(pgUrl, user, password, schema);
    int poolSize = pool.present() ? pool.integer(1, 200) : d.poolSize();
    return new StoreSettings(kind, null, pgUrl, user, password, schema, poolSize);
  }

  private static Path dataDir(ConfigNode n) {
    String s = n.nonEmptyString();
    try {
      return Path.of(s);
    } catch (java.nio.file.InvalidPathException e) {
      throw n.error("invalid path \"" + s + "\": " + e.getReason());
    }
  }

  /** {@code s} with a relative data directory resolved against {@code base} (may be null). */
  static StoreSettings resolve(StoreSettings s, Path base) {
    if (base == null || s.dataDir() == null || s.dataDir().isAbsolute()) {
      return s;
    }
    return new StoreSettings(
        s.kind(),
        base.resolve(s.dataDir()).normalize(),
        s.pgUrl(),
        s.pgUser(),
        s.pgPassword(),
        s.pgSchema(),
        s.poolSize());
  }
}
