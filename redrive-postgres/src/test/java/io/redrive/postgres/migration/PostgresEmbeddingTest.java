package io.redrive.postgres.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.redrive.Redrive;
import io.redrive.error.StoreException;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.postgres.PostgresStore;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PostgreSQL inside an application: its pool, its public schema, an earlier Redrive's layout. */
class PostgresEmbeddingTest {
  private PostgresMigrationFixture.Database db;

  @BeforeEach
  void newDatabase() {
    db = (PostgresMigrationFixture.Database) PostgresMigrationFixture.INSTANCE.newDatabase();
  }

  @AfterEach
  void closeDatabase() {
    db.close();
  }

  @Test
  void applicationHikariPool_storeUsesItWakesWorkersAndNeverClosesIt() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.url());
    config.setMaximumPoolSize(4);
    try (HikariDataSource appPool = new HikariDataSource(config)) {
      PostgresStore producerStore = PostgresStore.builder(appPool).build();
      PostgresStore consumerStore = PostgresStore.builder(appPool).build();
      Redrive producer = Redrive.builder(producerStore).build();
      Redrive consumer = Redrive.builder(consumerStore).build();
      producer.createQueue("q");
      CountDownLatch ran = new CountDownLatch(1);
      Worker worker =
          Worker.builder(consumer, "q")
              .pollInterval(Duration.ofSeconds(30), Duration.ofSeconds(30))
              .queueDepthInterval(Duration.ZERO)
              .handler(
                  "t",
                  ctx -> {
                    ran.countDown();
                    return HandlerResult.complete();
                  })
              .build()
              .start();
      try {
        producer.enqueue(NewMessage.builder("q", "t").build());
        assertThat(ran.await(10, TimeUnit.SECONDS)).as("ran, woken by NOTIFY").isTrue();
      } finally {
        worker.stop(Duration.ofSeconds(5));
      }
      producerStore.close();
      consumerStore.close();

      assertThat(appPool.isClosed()).isFalse();
      try (Connection c = appPool.getConnection();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT current_schema()")) {
        rs.next();
        assertThat(rs.getString(1))
            .as("the application's search path is untouched")
            .isEqualTo("public");
      }
    }
  }

  @Test
  void publicSchemaWithApplicationFlyway_storeInPublicToo_bothWork() throws SQLException {
    Flyway.configure()
        .dataSource(db.applicationDataSource())
        .locations("classpath:io/redrive/testkit/migration/app/v1")
        .load()
        .migrate();

    Redrive redrive =
        Redrive.builder(PostgresStore.builder(db.url()).schema("public").poolSize(2).build())
            .build();
    redrive.createQueue("q");
    String id = redrive.enqueue(NewMessage.builder("q", "t").build()).id();
    Flyway.configure()
        .dataSource(db.applicationDataSource())
        .locations("classpath:io/redrive/testkit/migration/app/v2")
        .load()
        .migrate();

    LeasedMessage m = redrive.lease(LeaseRequest.of("q", "w", 1)).leased().get(0);
    assertThat(m.id()).isEqualTo(id);
    redrive.close();
  }

  @Test
  void earlierDefaultLayoutInPublic_defaultSchemaRefusedNamingTheWayOut_publicAdopted()
      throws SQLException {
    // Redrive 0.1 without .schema(...): tables and Flyway's default history in the search path's.
    Flyway.configure()
        .dataSource(db.applicationDataSource())
        .locations("classpath:db/redrive/postgres")
        .target("3")
        .load()
        .migrate();
    try (Connection c = db.connect()) {
      PostgresMigrationFixture.runResource(c, "io/redrive/testkit/migration/earlier-data.sql");
    }

    assertThatThrownBy(() -> PostgresStore.builder(db.url()).poolSize(2).build())
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("earlier version are in schema \"public\"")
        .hasMessageContaining("schema(\"public\")")
        .hasMessageContaining("SET SCHEMA redrive");
    assertThat(db.redriveTableExists("redrive_queues")).as("nothing created").isFalse();

    Redrive redrive =
        Redrive.builder(PostgresStore.builder(db.url()).schema("public").poolSize(2).build())
            .build();
    assertThat(redrive.stats("legacy").total()).isEqualTo(1);
    redrive.close();
  }
}
