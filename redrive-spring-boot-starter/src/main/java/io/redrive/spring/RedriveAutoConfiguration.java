package io.redrive.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.Redrive;
import io.redrive.jdbc.MigrationMode;
import io.redrive.postgres.PostgresStore;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.trace.MessageTracing;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Redrive in a Spring Boot application: the store (PostgreSQL on the application's {@link
 * DataSource}, or an embedded SQLite file), and the {@link Redrive} engine, whose enqueues join the
 * Spring-managed transaction in progress on that DataSource. Each bean backs off when the
 * application defines its own.
 */
// By name: DataSourceAutoConfiguration moved between Spring Boot 3 and 4.
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"
    })
@EnableConfigurationProperties(RedriveProperties.class)
public class RedriveAutoConfiguration {
  /** The name of the {@link Clock} bean the engine runs on, when there is one. */
  public static final String REDRIVE_CLOCK = "redriveClock";

  /** The store the properties choose; closed with the context (never the application's pool). */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(Store.class)
  public Store redriveStore(RedriveProperties properties, ObjectProvider<DataSource> dataSources) {
    MigrationMode migrations =
        properties.getMigrations() == RedriveProperties.Migrations.VALIDATE
            ? MigrationMode.VALIDATE
            : MigrationMode.MIGRATE;
    DataSource dataSource = dataSources.getIfUnique();
    try {
      return open(properties, migrations, dataSource);
    } catch (RuntimeException e) {
      if (migrations != MigrationMode.VALIDATE || e.getMessage() == null) {
        throw e;
      }
      throw new IllegalStateException(
          "redrive.migrations=validate: "
              + e.getMessage()
              + "; or set redrive.migrations=migrate to apply them on start",
          e);
    }
  }

  private static Store open(
      RedriveProperties properties, MigrationMode migrations, DataSource dataSource) {
    return switch (properties.getStore()) {
      case SQLITE -> sqlite(properties.getSqlite().getDataDir(), migrations);
      case POSTGRES -> postgres(requirePostgres(dataSource, "postgres"), properties, migrations);
      case AUTO -> {
        if (dataSource == null) {
          yield sqlite(properties.getSqlite().getDataDir(), migrations);
        }
        ApplicationDatabase db = ApplicationDatabase.of(dataSource, "auto");
        if (db.sqliteFile() != null) {
          // The application's own SQLite file: Redrive's tables beside its tables, so enqueues
          // can join its transactions.
          yield SqliteStore.builder(db.sqliteFile()).migrationMode(migrations).build();
        }
        yield postgres(requirePostgres(dataSource, "auto"), properties, migrations);
      }
    };
  }

  /**
   * The engine over the store, with the application's {@link MeterRegistry} and {@link
   * MessageTracing} (see {@link RedriveTracingAutoConfiguration}) when there is one; its enqueues
   * join Spring's transactions when the store is on the application's DataSource. A {@link Clock}
   * bean named {@value #REDRIVE_CLOCK} becomes its clock (a test's {@code TestClock}; an
   * application's other Clock beans are left alone). Its {@code close} would close the store, which
   * the store bean does itself.
   */
  @Bean(destroyMethod = "")
  @ConditionalOnMissingBean
  public Redrive redrive(
      Store store,
      RedriveProperties properties,
      ObjectProvider<DataSource> dataSources,
      ObjectProvider<MeterRegistry> meterRegistries,
      ObjectProvider<RedriveQueue> queueBeans,
      ObjectProvider<MessageTracing> tracings,
      @Qualifier(REDRIVE_CLOCK) ObjectProvider<Clock> clocks) {
    Redrive.Builder builder =
        Redrive.builder(store).completionWindow(properties.getCompletionWindow());
    clocks.ifAvailable(builder::clock);
    try {
      builder.completedRetention(properties.getCompletedRetention());
    } catch (IllegalArgumentException e) {
      // Not chained: the message carries the whole story, and Spring shows the root cause.
      throw new IllegalArgumentException("redrive.completed-retention: " + e.getMessage());
    }
    try {
      builder.unservedAfter(properties.getUnservedAfter());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("redrive.unserved-after: " + e.getMessage());
    }
    meterRegistries.ifUnique(builder::meterRegistry);
    tracings.ifUnique(builder::tracing);
    DataSource dataSource = dataSources.getIfUnique();
    if (properties.isJoinTransactions()
        && dataSource != null
        && sharesDataSource(store, dataSource)) {
      builder.callerTransactions(new SpringCallerTransactions(dataSource));
    }
    Redrive redrive = builder.build();
    QueueDeclarations.declare(redrive, properties.getQueues(), queueBeans.orderedStream().toList());
    return redrive;
  }

  /**
   * Starts, reads and steers workflow instances (docs/workflows.md); a start joins the
   * Spring-managed transaction in progress as an enqueue does.
   */
  @Bean
  @ConditionalOnMissingBean
  public WorkflowClient redriveWorkflowClient(Redrive redrive) {
    return WorkflowClient.on(redrive);
  }

  /** Finds the orchestration and activity beans; static, as a post-processor must be. */
  @Bean
  static WorkflowBeans redriveWorkflowBeans() {
    return new WorkflowBeans();
  }

  /**
   * The workflow runtime of the application's own {@link WorkflowRegistry} bean, or of the
   * orchestration and activity beans found; none when there are neither.
   */
  @Bean
  RedriveWorkflowRuntime redriveWorkflowRuntime(
      Redrive redrive,
      WorkflowBeans found,
      ObjectProvider<WorkflowRegistry> registries,
      RedriveProperties properties,
      ObjectProvider<MeterRegistry> meterRegistries,
      Environment environment) {
    return new RedriveWorkflowRuntime(
        redrive,
        () -> {
          WorkflowRegistry own = registries.getIfUnique();
          return own != null ? own : found.any() ? found.registry() : null;
        },
        properties.getWorkflows(),
        meterRegistries.getIfUnique(),
        shutdownGrace(environment));
  }

  /** A second less than Spring's {@code spring.lifecycle.timeout-per-shutdown-phase} (30 s). */
  static Duration shutdownGrace(Environment environment) {
    Duration phase =
        Binder.get(environment)
            .bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
            .orElse(Duration.ofSeconds(30));
    Duration less = phase.minusSeconds(1);
    return less.isNegative() ? Duration.ZERO : less;
  }

  /** Finds the {@link RedriveHandler} beans and methods; static, as a post-processor must be. */
  @Bean
  static HandlerBeans redriveHandlerBeans() {
    return new HandlerBeans();
  }

  /** A worker per queue that has handlers, and the maintenance service, while the context runs. */
  @Bean
  RedriveWorkers redriveWorkers(
      Redrive redrive,
      HandlerBeans handlers,
      RedriveProperties properties,
      ObjectProvider<MeterRegistry> meterRegistries,
      Environment environment) {
    return new RedriveWorkers(
        redrive, handlers, properties, meterRegistries.getIfUnique(), shutdownGrace(environment));
  }

  /** What the Actuator health reports, whichever Spring Boot line's Actuator is present. */
  @Bean
  @ConditionalOnMissingBean
  RedriveHealth redriveHealth(
      Redrive redrive, RedriveWorkers workers, RedriveProperties properties) {
    return new RedriveHealth(
        redrive,
        workers,
        properties.getMigrations(),
        properties.getHealth().getDetailsInterval(),
        System::nanoTime);
  }

  /** The Actuator health contribution on Spring Boot 3. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  static class Health {
    @Bean
    @ConditionalOnMissingBean(name = "redriveHealthIndicator")
    RedriveHealthIndicator redriveHealthIndicator(RedriveHealth health) {
      return new RedriveHealthIndicator(health);
    }
  }

  /** The Actuator health contribution on Spring Boot 4 (its health types moved). */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  static class Boot4Health {
    @Bean
    @ConditionalOnMissingBean(name = "redriveHealthIndicator")
    RedriveBoot4HealthIndicator redriveHealthIndicator(RedriveHealth health) {
      return new RedriveBoot4HealthIndicator(health);
    }
  }

  /** Whether the store's tables are in the database the application's DataSource reaches. */
  private static boolean sharesDataSource(Store store, DataSource dataSource) {
    if (store instanceof PostgresStore postgres) {
      return postgres.usesDataSource(dataSource);
    }
    return store instanceof SqliteStore sqlite
        && sqlite
            .file()
            .toAbsolutePath()
            .normalize()
            .equals(ApplicationDatabase.of(dataSource, "auto").sqliteFile());
  }

  private static Store sqlite(Path dir, MigrationMode migrations) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new IllegalStateException(
          "redrive.sqlite.data-dir: cannot create \"" + dir + "\": " + e.getMessage(), e);
    }
    return SqliteStore.builder(dir.resolve(SqliteStore.FILE_NAME))
        .migrationMode(migrations)
        .build();
  }

  private static Store postgres(
      DataSource dataSource, RedriveProperties properties, MigrationMode migrations) {
    return PostgresStore.builder(dataSource)
        .schema(properties.getPostgres().getSchema())
        .migrationMode(migrations)
        .build();
  }

  /** The application's DataSource, which must reach PostgreSQL: Redrive stores in no other. */
  private static DataSource requirePostgres(DataSource dataSource, String store) {
    if (dataSource == null) {
      throw new IllegalStateException(
          "redrive.store="
              + store
              + ": the application has no single DataSource bean for Redrive's PostgreSQL"
              + " store; define one (spring.datasource.url) or set redrive.store=sqlite");
    }
    ApplicationDatabase db = ApplicationDatabase.of(dataSource, store);
    if (!db.isPostgres()) {
      throw new IllegalStateException(
          "redrive.store="
              + store
              + ": the application's DataSource is "
              + db.product()
              + (db.product().equals("SQLite")
                  ? " in memory; Redrive keeps its tables in a PostgreSQL database or a SQLite file"
                  : "; Redrive keeps its tables in a PostgreSQL database or a SQLite file")
              + ": set redrive.store=sqlite (its enqueues then do not join the application's"
              + " transactions)");
    }
    return dataSource;
  }
}
