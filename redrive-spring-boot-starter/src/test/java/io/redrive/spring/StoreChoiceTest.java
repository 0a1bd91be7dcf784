package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.postgres.PostgresStore;
import io.redrive.queue.QueuePolicy;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import io.redrive.testkit.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Which store the starter builds from the properties and the application's DataSource. */
class StoreChoiceTest {
  @TempDir Path dir;

  private final ApplicationContextRunner withoutDataSource =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(RedriveAutoConfiguration.class));

  private final ApplicationContextRunner withDataSource =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(BootClasses.dataSource(), RedriveAutoConfiguration.class));

  @Test
  void noDataSource_anEmbeddedSqliteFileInTheDataDir() {
    withoutDataSource
        .withPropertyValues("redrive.sqlite.data-dir=" + dir.resolve("queues"))
        .run(
            context -> {
              assertThat(context.getBean(Store.class)).isInstanceOf(SqliteStore.class);
              Redrive redrive = context.getBean(Redrive.class);
              redrive.declareQueue("q", QueuePolicy.defaults());
              redrive.enqueue(NewMessage.builder("q", "t").payload("{}").build());
              assertThat(redrive.stats("q").total()).isOne();
              assertThat(dir.resolve("queues").resolve(SqliteStore.FILE_NAME)).exists();
            });
  }

  @Test
  void postgresDataSource_theStoreRunsOnIt_inItsOwnSchema() {
    String database = TestPostgres.createDatabase("springstore");
    try {
      withDataSource
          .withPropertyValues(
              "spring.datasource.url=" + TestPostgres.urlForDatabase(database),
              "redrive.postgres.schema=queues",
              "redrive.completion-window=30s")
          .run(
              context -> {
                Store store = context.getBean(Store.class);
                assertThat(store).isInstanceOf(PostgresStore.class);
                assertThat(((PostgresStore) store).schema()).isEqualTo("queues");
                assertThat(
                        ((PostgresStore) store)
                            .usesDataSource(context.getBean(javax.sql.DataSource.class)))
                    .isTrue();
                assertThat(context.getBean(Redrive.class).completionWindow())
                    .isEqualTo(Duration.ofSeconds(30));
              });
    } finally {
      TestPostgres.dropDatabase(database);
    }
  }

  @Test
  void storeSqlite_evenBesideAPostgresDataSource() {
    String database = TestPostgres.createDatabase("springsqlite");
    try {
      withDataSource
          .withPropertyValues(
              "spring.datasource.url=" + TestPostgres.urlForDatabase(database),
              "redrive.store=sqlite",
              "redrive.sqlite.data-dir=" + dir)
          .run(context -> assertThat(context.getBean(Store.class)).isInstanceOf(SqliteStore.class));
    } finally {
      TestPostgres.dropDatabase(database);
    }
  }

  @Test
  void autoBesideAnInMemoryDatabase_failsNamingTheProperty() {
    withDataSource
        .withPropertyValues("spring.datasource.url=jdbc:sqlite::memory:")
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .hasMessageContaining("redrive.store=auto")
                    .hasMessageContaining("SQLite in memory")
                    .hasMessageContaining("set redrive.store=sqlite"));
  }

  @Test
  void autoBesideASqliteFile_keepsItsTablesInThatFile() {
    Path app = dir.resolve("app.db");
    withDataSource
        .withPropertyValues("spring.datasource.url=jdbc:sqlite:" + app)
        .run(
            context -> {
              Store store = context.getBean(Store.class);
              assertThat(store).isInstanceOf(SqliteStore.class);
              assertThat(((SqliteStore) store).file().toAbsolutePath()).isEqualTo(app);
            });
  }

  @Test
  void storePostgresWithoutADataSource_failsNamingWhatIsMissing() {
    withoutDataSource
        .withPropertyValues("redrive.store=postgres")
        .run(
            context ->
                StartFailures.rootCauseOf(context)
                    .hasMessageContaining("redrive.store=postgres")
                    .hasMessageContaining("no single DataSource"));
  }

  @Test
  void migrationsValidate_onAnEmptyFile_refusesToStart() throws Exception {
    Files.createDirectories(dir.resolve("empty"));
    withoutDataSource
        .withPropertyValues(
            "redrive.sqlite.data-dir=" + dir.resolve("empty"), "redrive.migrations=validate")
        .run(
            context ->
                assertThat(context)
                    .hasFailed()
                    .getFailure()
                    .hasMessageContaining("redrive.migrations=validate: SQLite file")
                    .hasMessageContaining("has no Redrive tables")
                    .hasMessageContaining("set redrive.migrations=migrate"));
  }

  @Test
  void anEngineOfTheApplicationsOwn_isKept() {
    withoutDataSource
        .withPropertyValues("redrive.sqlite.data-dir=" + dir)
        .withUserConfiguration(OwnEngine.class)
        .run(
            context ->
                assertThat(context.getBean(Redrive.class))
                    .isSameAs(context.getBean(OwnEngine.class).engine));
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnEngine {
    Redrive engine;

    @Bean
    Redrive redrive(Store store) {
      engine = Redrive.builder(store).build();
      return engine;
    }
  }
}
