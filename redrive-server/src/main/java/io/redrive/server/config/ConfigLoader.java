package io.redrive.server.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.redrive.Redrive;
import io.redrive.maintenance.Maintenance;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueUpdate;
import io.redrive.schedule.Schedule;
import io.redrive.server.auth.ApiKey;
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

  static final List<String> SECTIONS =
      List.of("server", "store", "keys", "queues", "workflows", "schedules", "objectives");
  static final List<String> SERVER =
      List.of(
          "bind",
          "port",
          "maxPayloadBytes",
          "maxRequestBytes",
          "maxLeaseWait",
          "maintenanceInterval",
          "allowedHosts",
          "completionWindow",
          "completedRetention",
          "unservedAfter");

  /** Longest allowed {@code server.maxLeaseWait}. */
  public static final Duration MAX_LEASE_WAIT = Duration.ofHours(1);

  private static final TomlMapper TOML = new TomlMapper();

  private final Secrets secrets;

  /** A loader reading {@code secretEnv} and {@code pgPasswordEnv} from the process environment. */
  public ConfigLoader() {
    this(System::getenv);
  }

  /** A loader reading environment variables through {@code env} (for tests). */
  public ConfigLoader(Function<String, String> env) {
    this.secrets = new Secrets(env);
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
        store.present()
            ? StoreSection.read(store, base, secrets)
            : StoreSection.resolve(defaults.store(), base);
    List<ApiKey> keys = KeySection.read(root.child("keys"), secrets);
    Map<String, QueueUpdate> queues = QueueSettings.read(root.child("queues"));
    WorkflowSettings workflows = WorkflowSection.read(root.child("workflows"));
    List<Schedule> schedules = ScheduleSettings.read(root.child("schedules"));
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
            config.completionWindow(),
            config.completedRetention(),
            workflows,
            schedules,
            ScheduleSettings.pauseDeclared(root.child("schedules")),
            config.unservedAfter(),
            ObjectiveSettings.read(root.child("objectives")));
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
    Duration retention = d.completedRetention();
    ConfigNode retentionNode = n.child("completedRetention");
    if (retentionNode.present()) {
      try {
        retention = QueuePolicy.requireCompletedRetention(retentionNode.duration());
      } catch (IllegalArgumentException e) {
        throw retentionNode.error(
            "must be between 0s (keep nothing) and 90d, was " + retentionNode.string());
      }
    }
    Duration unservedAfter = d.unservedAfter();
    ConfigNode unservedNode = n.child("unservedAfter");
    if (unservedNode.present()) {
      unservedAfter = unservedNode.duration();
      if (unservedAfter.compareTo(Duration.ofSeconds(30)) < 0
          || unservedAfter.compareTo(Duration.ofDays(1)) > 0) {
        throw unservedNode.error("must be between 30s and 1d, was " + unservedNode.string());
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
        .withCompletionWindow(completionWindow)
        .withCompletedRetention(retention)
        .withUnservedAfter(unservedAfter);
  }
}
