package io.redrive.server.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.redrive.Redrive;
import io.redrive.jdbc.MigrationMode;
import io.redrive.maintenance.Maintenance;
import io.redrive.queue.QueueUpdate;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads {@code redrive.toml} into a validated {@link ServerConfig}: settings not in the file keep
 * {@link ServerConfig#defaults()}, relative paths are resolved against the file's directory, and
 * secrets may come from environment variables. Every problem is a {@link ConfigException} naming
 * the file, the setting's path and the problem; unknown settings are errors. Thread-safe.
 *
 * <p>Declared queues are only read here; {@link QueueDeclarations#apply} creates or updates them in
 * the store. See {@code docs/configuration.md} for the format.
 */
public final class ConfigLoader {
  /** The file name looked for by default. */
  public static final String DEFAULT_FILE_NAME = "redrive.toml";

  static final List<String> SECTIONS = List.of("server", "store", "keys", "queues");
  static final List<String> SERVER =
      List.of(
          "bind",
          "port",
          "maxPayloadBytes",
          "maxRequestBytes",
          "maxLeaseWait",
          "maintenanceInterval",
          "allowedHosts",
          "completionWindow");
  static final List<String> STORE =
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
  static final List<String> KEY =
      List.of("name", "secret", "secretEnv", "role", "queues", "workflows");

  /** Longest allowed {@code server.maxLeaseWait}. */
  public static final Duration MAX_LEASE_WAIT = Duration.ofHours(1);

  private static final TomlMapper TOML = new TomlMapper();

  private final Function<String, String> env;

  /** A loader reading {@code secretEnv} and {@code pgPasswordEnv} from the process environment. */
  public ConfigLoader() {
    this(System::getenv);
  }

  /** A loader reading environment variables through {@code env} (for tests). */
  public ConfigLoader(Function<String, String> env) {
    this.env = env;
  }

  /**
   * Reads and validates {@code file}.
   *
   * @throws ConfigException when it cannot be read or is invalid
   */
  public ServerConfig load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new ConfigException(file, null, "cannot read the file (" + e + ")", e);
    }
    return parse(text, file);
  }

  /**
   * Validates {@code toml} as if it were the content of {@code file}.
   *
   * @param file used in messages and to resolve relative paths; may be null (then paths are left
   *     relative to the working directory and messages have no file part)
   * @throws ConfigException when it is invalid
   */
  public ServerConfig parse(String toml, Path file) {
    JsonNode tree;
    try {
      tree = TOML.readTree(toml);
    } catch (JacksonException e) {
      throw syntaxError(file, e);
    }
    if (tree == null || tree.isMissingNode() || tree.isNull()) {
      tree = TOML.createObjectNode();
    }
    ConfigNode root = new ConfigNode(file, "", tree).allowOnly(SECTIONS);
    Path base = file == null ? null : file.toAbsolutePath().getParent();

    ServerConfig defaults = ServerConfig.defaults();
    ConfigNode server = root.child("server");
    ServerConfig config = server.present() ? server(server, defaults) : defaults;
    ConfigNode store = root.child("store");
    StoreSettings storeSettings =
        store.present() ? store(store, base) : resolve(defaults.store(), base);
    List<ApiKey> keys = keys(root.child("keys"));
    Map<String, QueueUpdate> queues = QueueSettings.read(root.child("queues"));
    config =
        new ServerConfig(
            config.bind(),
            config.port(),
            storeSettings,
            config.maxPayloadBytes(),
            config.maxRequestBytes(),
            config.maxLeaseWait(),
            keys,
            queues,
            file,
            config.maintenanceInterval(),
            config.allowedHosts(),
            config.completionWindow());
    try {
      config.requireKeysForRemoteBind();
    } catch (IllegalArgumentException e) {
      throw server.child("bind").error(e);
    }
    return config;
  }

  private static ConfigException syntaxError(Path file, JacksonException e) {
    JsonLocation at = e.getLocation();
    String where =
        at != null && at.getLineNr() > 0
            ? " at line "
                + at.getLineNr()
                + (at.getColumnNr() > 0 ? ", column " + at.getColumnNr() : "")
            : "";
    return new ConfigException(
        file, null, "invalid TOML" + where + ": " + e.getOriginalMessage(), e);
  }

  private static ServerConfig server(ConfigNode n, ServerConfig d) {
    n.allowOnly(SERVER);
    String bind = n.child("bind").present() ? n.child("bind").nonEmptyString() : d.bind();
    int port = n.child("port").present() ? n.child("port").integer(0, 65535) : d.port();
    int request =
        n.child("maxRequestBytes").present()
            ? n.child("maxRequestBytes").integer(1, Integer.MAX_VALUE)
            : d.maxRequestBytes();
    int payload =
        n.child("maxPayloadBytes").present()
            ? n.child("maxPayloadBytes").integer(1, Integer.MAX_VALUE)
            : d.maxPayloadBytes();
    if (payload > request) {
      ConfigNode at =
          n.child("maxPayloadBytes").present()
              ? n.child("maxPayloadBytes")
              : n.child("maxRequestBytes");
      throw at.error(
          "maxPayloadBytes ("
              + payload
              + ") must not exceed maxRequestBytes ("
              + request
              + "): a request carries at least one payload");
    }
    Duration wait = d.maxLeaseWait();
    ConfigNode waitNode = n.child("maxLeaseWait");
    if (waitNode.present()) {
      wait = waitNode.duration();
      if (wait.compareTo(MAX_LEASE_WAIT) > 0) {
        throw waitNode.error("must be at most 1h, was " + waitNode.string());
      }
    }
    Duration maintenance = d.maintenanceInterval();
    ConfigNode maintenanceNode = n.child("maintenanceInterval");
    if (maintenanceNode.present()) {
      try {
        maintenance = Maintenance.requireInterval(maintenanceNode.duration());
      } catch (IllegalArgumentException e) {
        throw maintenanceNode.error("must be between 10ms and 1h, was " + maintenanceNode.string());
      }
    }
    Duration completionWindow = d.completionWindow();
    ConfigNode windowNode = n.child("completionWindow");
    if (windowNode.present()) {
      completionWindow = windowNode.duration();
      if (completionWindow.compareTo(Redrive.MAX_COMPLETION_WINDOW) > 0) {
        throw windowNode.error("must be at most 7d, was " + windowNode.string());
      }
    }
    List<String> allowedHosts = d.allowedHosts();
    ConfigNode hostsNode = n.child("allowedHosts");
    if (hostsNode.present()) {
      allowedHosts = new ArrayList<>();
      for (ConfigNode h : hostsNode.array()) {
        allowedHosts.add(h.nonEmptyString());
      }
    }
    return d.withBind(bind)
        .withPort(port)
        .withAllowedHosts(allowedHosts)
        .withLimits(payload, request, wait)
        .withMaintenanceInterval(maintenance)
        .withCompletionWindow(completionWindow);
  }

  private StoreSettings store(ConfigNode n, Path base) {
    return storeWithoutMigrations(n, base).withMigrations(migrations(n.child("migrations")));
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

  private StoreSettings storeWithoutMigrations(ConfigNode n, Path base) {
    n.allowOnly(STORE);
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
    String password = secret(n.child("pgPassword"), n.child("pgPasswordEnv"), false);
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

  private static StoreSettings resolve(StoreSettings s, Path base) {
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

  /**
   * The secret given directly ({@code plain}) or through an environment variable ({@code fromEnv});
   * at most one of them. Never echoes the value.
   */
  private String secret(ConfigNode plain, ConfigNode fromEnv, boolean required) {
    if (plain.present() && fromEnv.present()) {
      throw fromEnv.error("not together with " + last(plain.path()) + " (give one of them)");
    }
    if (plain.present()) {
      return plain.secretString();
    }
    if (fromEnv.present()) {
      String variable = fromEnv.nonEmptyString();
      String value = env.apply(variable);
      if (value == null || value.isEmpty()) {
        throw fromEnv.error("environment variable \"" + variable + "\" is not set");
      }
      return value;
    }
    if (required) {
      throw plain.error("is required (or " + last(fromEnv.path()) + ")");
    }
    return null;
  }

  private List<ApiKey> keys(ConfigNode n) {
    List<ApiKey> keys = new ArrayList<>();
    if (!n.present()) {
      return keys;
    }
    if (!n.isArray()) {
      throw n.error("expected an array of tables ([[keys]]), was " + n.describe());
    }
    List<ConfigNode> nodes = n.array();
    for (ConfigNode k : nodes) {
      k.requireTable().allowOnly(KEY);
      ConfigNode name = k.child("name");
      if (!name.present()) {
        throw name.error("is required");
      }
      String keyName = name.nonEmptyString();
      String secret = secret(k.child("secret"), k.child("secretEnv"), true);
      ConfigNode roleNode = k.child("role");
      if (!roleNode.present()) {
        throw roleNode.error("is required (admin, producer, consumer or viewer)");
      }
      Role role;
      try {
        role = Role.parse(roleNode.string());
      } catch (IllegalArgumentException e) {
        throw roleNode.error(e);
      }
      List<String> queues = List.of();
      ConfigNode queuesNode = k.child("queues");
      if (queuesNode.present()) {
        List<ConfigNode> items = queuesNode.array();
        if (items.isEmpty()) {
          throw queuesNode.error(
              "must name at least one queue or pattern (leave it out for every queue)");
        }
        List<String> patterns = new ArrayList<>();
        for (ConfigNode item : items) {
          patterns.add(item.string());
        }
        queues = List.copyOf(patterns);
      }
      List<String> workflows = List.of();
      ConfigNode workflowsNode = k.child("workflows");
      if (workflowsNode.present()) {
        List<ConfigNode> items = workflowsNode.array();
        if (items.isEmpty()) {
          throw workflowsNode.error(
              "must name at least one orchestration or pattern (leave it out for every one)");
        }
        List<String> patterns = new ArrayList<>();
        for (ConfigNode item : items) {
          patterns.add(item.string());
        }
        workflows = List.copyOf(patterns);
      }
      keys.add(new ApiKey(keyName, secret, role, queues, workflows));
    }
    try {
      KeyAuthorizer.validate(keys);
    } catch (IllegalArgumentException e) {
      throw keyError(n, nodes, e);
    }
    return keys;
  }

  /** Maps {@code keys[i].field: problem} from the key validation onto the file's paths. */
  private static ConfigException keyError(
      ConfigNode keysNode, List<ConfigNode> nodes, IllegalArgumentException e) {
    String message = e.getMessage();
    int colon = message.indexOf(": ");
    String path = colon < 0 ? keysNode.path() : message.substring(0, colon);
    String problem = colon < 0 ? message : message.substring(colon + 2);
    int close = path.indexOf(']');
    if (path.startsWith("keys[") && close > 0 && path.endsWith(".secret")) {
      int i = Integer.parseInt(path.substring(5, close));
      if (nodes.get(i).child("secretEnv").present()) {
        path = path.substring(0, path.length() - "secret".length()) + "secretEnv";
      }
    }
    return new ConfigException(keysNode.file(), path, problem, e);
  }

  private static String last(String path) {
    return path.substring(path.lastIndexOf('.') + 1);
  }
}
