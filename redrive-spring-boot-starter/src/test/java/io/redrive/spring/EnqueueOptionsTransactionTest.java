package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Message;
import io.redrive.message.NewMessage;
import io.redrive.message.OnDuplicate;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.TestPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * The issue-32 enqueue options from Spring code: in a {@code @Transactional} method, a unique-key
 * REPLACE, a priority enqueue with a limit key and a debounce all join the method's transaction
 * (plain {@code redrive.enqueue}, or on a connection taken from the pool beside it): nothing of
 * them lands when it rolls back, not even the replacement of a message already waiting, and each
 * keeps its options unchanged when it commits. On PostgreSQL and on the application's SQLite file.
 */
class EnqueueOptionsTransactionTest {
  static final String QUEUE = "reports";

  @TempDir Path dir;

  /** A service as an application writes it: records a request and enqueues its reports. */
  public static class ReportService {
    private final JdbcTemplate jdbc;
    private final DataSource dataSource;
    private final Redrive redrive;

    public ReportService(JdbcTemplate jdbc, DataSource dataSource, Redrive redrive) {
      this.jdbc = jdbc;
      this.dataSource = dataSource;
      this.redrive = redrive;
    }

    /** The three enqueues, each the way {@code way} names; throws at the end when {@code fail}. */
    @Transactional
    public List<EnqueueResult> request(String way, String version, boolean fail) {
      jdbc.update("INSERT INTO requests (version) VALUES (?)", version);
      List<EnqueueResult> results = new ArrayList<>();
      results.add(enqueue(way, report(version)));
      results.add(
          enqueue(
              way,
              NewMessage.builder(QUEUE, "urgent")
                  .payload(version)
                  .priority(7)
                  .limitKey("acme")
                  .build()));
      results.add(
          enqueue(
              way,
              NewMessage.builder(QUEUE, "digest")
                  .payload(version)
                  .uniqueKey("digest:acme")
                  .debounce(Duration.ofMinutes(1))
                  .build()));
      if (fail) {
        throw new IllegalStateException("request refused");
      }
      return results;
    }

    private EnqueueResult enqueue(String way, NewMessage message) {
      if (way.equals(EnqueueWays.PLAIN)) {
        return redrive.enqueue(message);
      }
      try (Connection c = dataSource.getConnection()) {
        return redrive.enqueue(c, message);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** The report of one request: one per tenant while it waits, the latest request's version. */
  static NewMessage report(String version) {
    return NewMessage.builder(QUEUE, "build")
        .payload(version)
        .uniqueKey("report:acme")
        .onDuplicate(OnDuplicate.REPLACE)
        .limitKey("acme")
        .build();
  }

  @Configuration(proxyBeanMethods = false)
  static class Service {
    @Bean
    JdbcTemplate jdbcTemplate(DataSource dataSource) {
      return new JdbcTemplate(dataSource);
    }

    @Bean
    ReportService reportService(JdbcTemplate jdbc, DataSource dataSource, Redrive redrive) {
      return new ReportService(jdbc, dataSource, redrive);
    }
  }

  @ParameterizedTest(name = "{0}, {1}")
  @CsvSource({
    "postgres, " + EnqueueWays.PLAIN,
    "postgres, " + EnqueueWays.POOL_CONNECTION,
    "sqlite, " + EnqueueWays.PLAIN,
    "sqlite, " + EnqueueWays.POOL_CONNECTION
  })
  void uniqueKeyPriorityAndDebounceEnqueues_rollBackAndCommitWithTheMethod(
      String store, String way) {
    String database = store.equals("postgres") ? TestPostgres.createDatabase("springopts") : null;
    String url =
        database != null
            ? TestPostgres.urlForDatabase(database)
            : "jdbc:sqlite:" + dir.resolve("app.db") + "?busy_timeout=30000";
    try {
      Runners.withTransactions(url)
          .withUserConfiguration(Service.class)
          .run(
              context -> {
                JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                jdbc.execute("CREATE TABLE requests (version TEXT)");
                Redrive redrive = context.getBean(Redrive.class);
                redrive.declareQueue(QUEUE, QueuePolicy.defaults());
                ReportService service = context.getBean(ReportService.class);
                String waiting = redrive.enqueue(report("v1")).id(); // committed on its own

                assertThatThrownBy(() -> service.request(way, "v2", true))
                    .hasMessage("request refused");
                assertThat(redrive.getMessage(waiting).payload())
                    .as("the replacement rolled back with the method")
                    .isEqualTo("v1");
                assertThat(redrive.stats(QUEUE).total()).as("and so did the others").isOne();

                List<EnqueueResult> results = service.request(way, "v3", false);
                assertThat(results.get(0)).isEqualTo(EnqueueResult.replacedBy(waiting));
                Message report = redrive.getMessage(waiting);
                assertThat(report.payload()).isEqualTo("v3");
                assertThat(report.uniqueKey()).isEqualTo("report:acme");
                assertThat(report.limitKey()).isEqualTo("acme");
                Message urgent = redrive.getMessage(results.get(1).id());
                assertThat(urgent.priority()).isEqualTo(7);
                assertThat(urgent.limitKey()).isEqualTo("acme");
                Message digest = redrive.getMessage(results.get(2).id());
                assertThat(digest.uniqueKey()).isEqualTo("digest:acme");
                assertThat(Duration.between(digest.enqueuedAt(), digest.visibleAt()))
                    .as("the debounce window")
                    .isEqualTo(Duration.ofMinutes(1));
                assertThat(redrive.stats(QUEUE).total()).isEqualTo(3);
                assertThat(jdbc.queryForObject("SELECT count(*) FROM requests", Integer.class))
                    .isOne();
              });
    } finally {
      if (database != null) {
        TestPostgres.dropDatabase(database);
      }
    }
  }
}
