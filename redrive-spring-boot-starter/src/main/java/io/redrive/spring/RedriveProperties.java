package io.redrive.spring;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The {@code redrive.*} properties of a Spring Boot application (docs/spring-boot.md lists them
 * with their defaults). A declared queue's fields are {@link QueueProperties}, a worker's {@link
 * WorkerProperties}.
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
   * How long completed messages keep their story, for queues that set none of their own; 0s keeps
   * none, at most 90d.
   */
  private Duration completedRetention = Duration.ofSeconds(0);

  /**
   * How long a ready message's type may wait with no live worker taking it before it is raised as
   * unserved; also how recent a lease call must be for its worker to count as live. 30s to 1d.
   */
  private Duration unservedAfter = Duration.ofMinutes(5);

  /**
   * Whether enqueues join the Spring-managed transaction in progress on the store's DataSource
   * (PostgreSQL on the application's DataSource only).
   */
  private boolean joinTransactions = true;

  private final Postgres postgres = new Postgres();
  private final Sqlite sqlite = new Sqlite();
  private final Maintenance maintenance = new Maintenance();
  private final HealthSettings health = new HealthSettings();
  private final Workflows workflows = new Workflows();

  /** Settings of every queue's worker (each handler queue gets one worker). */
  @NestedConfigurationProperty private final WorkerProperties worker = new WorkerProperties();

  /**
   * Queues declared on start, by name: created when missing, else given the fields set here (fields
   * not set keep their value); see docs/spring-boot.md, "Queues".
   */
  private final Map<String, QueueProperties> queues = new LinkedHashMap<>();

  /** Settings of one queue's worker, by queue name, over those of {@code redrive.worker}. */
  private final Map<String, WorkerProperties> workers = new LinkedHashMap<>();

  /**
   * Recurring schedules declared on start, by name: created when missing, else saved when they
   * differ (a paused flag set by an operator stays); see docs/spring-boot.md, "Schedules".
   */
  private final Map<String, ScheduleProperties> schedules = new LinkedHashMap<>();

  /**
   * Queue-age objectives saved on start, by name (counts kept); see docs/spring-boot.md,
   * "Objectives".
   */
  private final Map<String, ObjectiveProperties> objectives = new LinkedHashMap<>();

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

  public Duration getUnservedAfter() {
    return unservedAfter;
  }

  public void setUnservedAfter(Duration unservedAfter) {
    this.unservedAfter = unservedAfter;
  }

  public Duration getCompletedRetention() {
    return completedRetention;
  }

  public void setCompletedRetention(Duration completedRetention) {
    this.completedRetention = completedRetention;
  }

  public boolean isJoinTransactions() {
    return joinTransactions;
  }

  public void setJoinTransactions(boolean joinTransactions) {
    this.joinTransactions = joinTransactions;
  }

  public Map<String, QueueProperties> getQueues() {
    return queues;
  }

  public Map<String, ScheduleProperties> getSchedules() {
    return schedules;
  }

  public Map<String, ObjectiveProperties> getObjectives() {
    return objectives;
  }

  public Workflows getWorkflows() {
    return workflows;
  }

  public Maintenance getMaintenance() {
    return maintenance;
  }

  public HealthSettings getHealth() {
    return health;
  }

  public WorkerProperties getWorker() {
    return worker;
  }

  public Map<String, WorkerProperties> getWorkers() {
    return workers;
  }

  /** The settings of {@code queue}'s worker: its own where set, else {@code redrive.worker}'s. */
  WorkerProperties workerFor(String queue) {
    WorkerProperties own = workers.get(queue);
    return own == null ? worker : own.over(worker);
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

  /** {@code redrive.maintenance.*}. */
  public static class Maintenance {
    /**
     * Whether the application runs the maintenance service (deadline sweep, lost-lease give-back,
     * old completions and counters), every second; safe on every node at once.
     */
    private boolean enabled = true;

    /**
     * Whether this node's maintenance service also fires recurring schedules; safe on every node at
     * once (each due time fires once). Off for a node that should only sweep.
     */
    private boolean schedules = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public boolean isSchedules() {
      return schedules;
    }

    public void setSchedules(boolean schedules) {
      this.schedules = schedules;
    }
  }

  /** {@code redrive.health.*}. */
  public static class HealthSettings {
    /**
     * How often the Actuator health reads the handler queues' counts for its details (a scan of
     * each queue); the store itself is pinged on every check. 0s reads them on every check.
     */
    private Duration detailsInterval = Duration.ofSeconds(15);

    public Duration getDetailsInterval() {
      return detailsInterval;
    }

    public void setDetailsInterval(Duration detailsInterval) {
      if (detailsInterval == null || detailsInterval.isNegative()) {
        throw new IllegalArgumentException(
            "redrive.health.details-interval must be zero or positive, got " + detailsInterval);
      }
      this.detailsInterval = detailsInterval;
    }
  }

  /** {@code redrive.workflows.*}: the workflow runtime of the application's orchestrations. */
  public static class Workflows {
    /** Orchestration turns run at once (default: the runtime's). */
    private Integer orchestrationConcurrency;

    /** Activities run at once (default: the runtime's). */
    private Integer activityConcurrency;

    /**
     * How long a stop lets running turns and activities finish (default: a second less than
     * spring.lifecycle.timeout-per-shutdown-phase).
     */
    private Duration shutdownGrace;

    public Integer getOrchestrationConcurrency() {
      return orchestrationConcurrency;
    }

    public void setOrchestrationConcurrency(Integer orchestrationConcurrency) {
      this.orchestrationConcurrency = orchestrationConcurrency;
    }

    public Integer getActivityConcurrency() {
      return activityConcurrency;
    }

    public void setActivityConcurrency(Integer activityConcurrency) {
      this.activityConcurrency = activityConcurrency;
    }

    public Duration getShutdownGrace() {
      return shutdownGrace;
    }

    public void setShutdownGrace(Duration shutdownGrace) {
      this.shutdownGrace = shutdownGrace;
    }
  }
}
