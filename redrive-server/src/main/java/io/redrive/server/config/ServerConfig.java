package io.redrive.server.config;

import io.redrive.Redrive;
import io.redrive.maintenance.Maintenance;
import io.redrive.queue.QueueUpdate;
import io.redrive.schedule.Schedule;
import io.redrive.server.auth.ApiKey;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the server needs, validated. Built from flags and/or {@code redrive.toml}.
 *
 * @param bind the address to listen on (default 127.0.0.1)
 * @param port the port (default 7070; 0 picks a free one)
 * @param store the store
 * @param maxPayloadBytes largest message payload (default 256 KiB)
 * @param maxRequestBytes largest request body (default 8 MiB)
 * @param maxLeaseWait longest long-poll wait a lease call may ask for (default 30 s)
 * @param keys API keys; empty means no authentication (then the server only binds to loopback)
 * @param queues declared queues in file order: fields given in the file, the rest default (create)
 *     or keep their value (update)
 * @param source the config file, or null
 * @param maintenanceInterval how often the server's maintenance service sweeps messages past their
 *     deadline into EXPIRED (default 1 s)
 * @param allowedHosts more host names or addresses a request's {@code Host} (and {@code Origin})
 *     may name, besides the loopback names and the bind address (default none); see docs/api.md
 * @param completionWindow how long a completed message is remembered for repeated completes and
 *     dedupe keys (default 5 min; zero: not at all); see docs/api.md, "Completion window"
 * @param completedRetention how long completed messages keep their story in queues that do not set
 *     their own {@code completedRetention} (default 0s: not kept); see docs/engine.md, "Completed
 *     messages"
 * @param workflows the {@code [workflows]} settings of the workflow runtime the server runs when
 *     started with one (each unset one keeps the runtime's default)
 * @param schedules declared recurring schedules ({@code [schedules.<name>]}) in file order
 * @param pauseDeclared the names of the declared schedules whose table says {@code paused}: their
 *     pause is as declared at each start; the others keep the stored one (an operator's pause)
 * @param unservedAfter how long a ready type may wait with no live worker before it is raised as
 *     unserved (default 5 min; null: the default); see docs/engine.md, "Live workers and unserved
 *     types"
 * @param objectives declared queue-age objectives ({@code [objectives.<name>]}) in file order
 */
public record ServerConfig(
    String bind,
    int port,
    StoreSettings store,
    int maxPayloadBytes,
    int maxRequestBytes,
    Duration maxLeaseWait,
    List<ApiKey> keys,
    Map<String, QueueUpdate> queues,
    Path source,
    Duration maintenanceInterval,
    List<String> allowedHosts,
    Duration completionWindow,
    Duration completedRetention,
    WorkflowSettings workflows,
    List<Schedule> schedules,
    java.util.Set<String> pauseDeclared,
    Duration unservedAfter,
    List<io.redrive.objective.Objective> objectives) {

  public static final String DEFAULT_BIND = "127.0.0.1";
  public static final int DEFAULT_PORT = 7070;

  public ServerConfig {
    keys = List.copyOf(keys);
    allowedHosts = List.copyOf(allowedHosts);
    queues = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(queues));
    workflows = workflows == null ? WorkflowSettings.defaults() : workflows;
    schedules = schedules == null ? List.of() : List.copyOf(schedules);
    pauseDeclared =
        pauseDeclared == null ? java.util.Set.of() : java.util.Set.copyOf(pauseDeclared);
    completedRetention = completedRetention == null ? Duration.ZERO : completedRetention;
    unservedAfter = unservedAfter == null ? Redrive.DEFAULT_UNSERVED_AFTER : unservedAfter;
    objectives = objectives == null ? List.of() : List.copyOf(objectives);
  }

  /** The defaults: loopback:7070, SQLite in {@code ./data}, no keys, no declared queues. */
  public static ServerConfig defaults() {
    return new ServerConfig(
        DEFAULT_BIND,
        DEFAULT_PORT,
        StoreSettings.sqlite(Path.of("data")),
        256 * 1024,
        8 * 1024 * 1024,
        Duration.ofSeconds(30),
        List.of(),
        Map.of(),
        null,
        Maintenance.DEFAULT_INTERVAL,
        List.of(),
        Redrive.DEFAULT_COMPLETION_WINDOW,
        Duration.ZERO,
        WorkflowSettings.defaults(),
        List.of(),
        java.util.Set.of(),
        null,
        List.of());
  }

  public ServerConfig withBind(String value) {
    Copy c = new Copy(this);
    c.bind = value;
    return c.build();
  }

  public ServerConfig withPort(int value) {
    Copy c = new Copy(this);
    c.port = value;
    return c.build();
  }

  public ServerConfig withStore(StoreSettings value) {
    Copy c = new Copy(this);
    c.store = value;
    return c.build();
  }

  public ServerConfig withKeys(List<ApiKey> value) {
    Copy c = new Copy(this);
    c.keys = value;
    return c.build();
  }

  /**
   * Refuses a bind address that is not loopback while no API keys are configured: without keys
   * every request is an anonymous admin, which is only safe on this machine. The server calls this
   * before it listens (after command-line flags are applied); {@link ConfigLoader} calls it too.
   *
   * @throws IllegalArgumentException {@code bind: ...} naming the address
   */
  public void requireKeysForRemoteBind() {
    if (!keys.isEmpty()) {
      return;
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("bind: cannot resolve \"" + bind + "\"", e);
    }
    if (!address.isLoopbackAddress()) {
      throw new IllegalArgumentException(
          "bind: \""
              + bind
              + "\" is not a loopback address and no API keys are configured;"
              + " add [[keys]] to listen on it, or bind to 127.0.0.1");
    }
  }

  public ServerConfig withMaintenanceInterval(Duration value) {
    Copy c = new Copy(this);
    c.maintenanceInterval = value;
    return c.build();
  }

  public ServerConfig withLimits(int payloadBytes, int requestBytes, Duration leaseWait) {
    Copy c = new Copy(this);
    c.maxPayloadBytes = payloadBytes;
    c.maxRequestBytes = requestBytes;
    c.maxLeaseWait = leaseWait;
    return c.build();
  }

  /** The same config with these extra allowed {@code Host} names (lower-cased when checked). */
  public ServerConfig withAllowedHosts(List<String> value) {
    Copy c = new Copy(this);
    c.allowedHosts = value;
    return c.build();
  }

  /** The same config with this completion window. */
  public ServerConfig withCompletionWindow(Duration value) {
    Copy c = new Copy(this);
    c.completionWindow = value;
    return c.build();
  }

  /** The same config with these {@code [workflows]} settings. */
  public ServerConfig withWorkflows(WorkflowSettings value) {
    Copy c = new Copy(this);
    c.workflows = value;
    return c.build();
  }

  /** The same config with this default retention of completed messages. */
  public ServerConfig withCompletedRetention(Duration value) {
    Copy c = new Copy(this);
    c.completedRetention = value;
    return c.build();
  }

  /** The same config with this unserved-types threshold. */
  public ServerConfig withUnservedAfter(Duration value) {
    Copy c = new Copy(this);
    c.unservedAfter = value;
    return c.build();
  }

  /** The same config with these declared objectives. */
  public ServerConfig withObjectives(List<io.redrive.objective.Objective> value) {
    Copy c = new Copy(this);
    c.objectives = value;
    return c.build();
  }

  /** A config's components, one of them changed by a {@code with} method before {@link #build}. */
  private static final class Copy {
    private String bind;
    private int port;
    private StoreSettings store;
    private int maxPayloadBytes;
    private int maxRequestBytes;
    private Duration maxLeaseWait;
    private List<ApiKey> keys;
    private Map<String, QueueUpdate> queues;
    private Path source;
    private Duration maintenanceInterval;
    private List<String> allowedHosts;
    private Duration completionWindow;
    private Duration completedRetention;
    private WorkflowSettings workflows;
    private List<Schedule> schedules;
    private java.util.Set<String> pauseDeclared;
    private Duration unservedAfter;
    private List<io.redrive.objective.Objective> objectives;

    Copy(ServerConfig c) {
      bind = c.bind;
      port = c.port;
      store = c.store;
      maxPayloadBytes = c.maxPayloadBytes;
      maxRequestBytes = c.maxRequestBytes;
      maxLeaseWait = c.maxLeaseWait;
      keys = c.keys;
      queues = c.queues;
      source = c.source;
      maintenanceInterval = c.maintenanceInterval;
      allowedHosts = c.allowedHosts;
      completionWindow = c.completionWindow;
      completedRetention = c.completedRetention;
      workflows = c.workflows;
      schedules = c.schedules;
      pauseDeclared = c.pauseDeclared;
      unservedAfter = c.unservedAfter;
      objectives = c.objectives;
    }

    ServerConfig build() {
      return new ServerConfig(
          bind,
          port,
          store,
          maxPayloadBytes,
          maxRequestBytes,
          maxLeaseWait,
          keys,
          queues,
          source,
          maintenanceInterval,
          allowedHosts,
          completionWindow,
          completedRetention,
          workflows,
          schedules,
          pauseDeclared,
          unservedAfter,
          objectives);
    }
  }
}
