package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.annotation.Transactional;

/**
 * The issue's own words: in a {@code @Transactional} method that inserts an order, enqueues an
 * email and then throws, each of the three ways of enqueuing rolls back with the order.
 */
class TransactionalMethodsTest {
  /** A service as an application writes it; each method enqueues one way, then fails. */
  public static class OrderService {
    private final JdbcTemplate jdbc;
    private final DataSource dataSource;
    private final Redrive redrive;

    public OrderService(JdbcTemplate jdbc, DataSource dataSource, Redrive redrive) {
      this.jdbc = jdbc;
      this.dataSource = dataSource;
      this.redrive = redrive;
    }

    @Transactional
    public void plain(String id) {
      jdbc.update("INSERT INTO orders (id) VALUES (?)", id);
      redrive.enqueue(email());
      throw new IllegalStateException("payment declined");
    }

    @Transactional
    public void transactionConnection(String id) {
      jdbc.update("INSERT INTO orders (id) VALUES (?)", id);
      redrive.enqueue(DataSourceUtils.getConnection(dataSource), email());
      throw new IllegalStateException("payment declined");
    }

    @Transactional
    public void poolConnection(String id) throws SQLException {
      jdbc.update("INSERT INTO orders (id) VALUES (?)", id);
      try (Connection c = dataSource.getConnection()) {
        redrive.enqueue(c, email());
      }
      throw new IllegalStateException("payment declined");
    }

    private static NewMessage email() {
      return NewMessage.builder("emails", "order-placed").payload("{}").build();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Service {
    @Bean
    JdbcTemplate jdbcTemplate(DataSource dataSource) {
      return new JdbcTemplate(dataSource);
    }

    @Bean
    OrderService orderService(JdbcTemplate jdbc, DataSource dataSource, Redrive redrive) {
      return new OrderService(jdbc, dataSource, redrive);
    }
  }

  private String database;

  @BeforeEach
  void createDatabase() {
    database = TestPostgres.createDatabase("springtxmethods");
  }

  @AfterEach
  void dropDatabase() {
    TestPostgres.dropDatabase(database);
  }

  @Test
  void eachWayOfEnqueuing_inATransactionalMethodThatThrows_rollsBackWithTheOrder() {
    Runners.withTransactions(TestPostgres.urlForDatabase(database))
        .withUserConfiguration(Service.class)
        .run(
            context -> {
              JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
              jdbc.execute("CREATE TABLE orders (id TEXT PRIMARY KEY)");
              Redrive redrive = context.getBean(Redrive.class);
              redrive.declareQueue("emails", QueuePolicy.defaults());
              OrderService service = context.getBean(OrderService.class);

              assertThatThrownBy(() -> service.plain("o-1")).hasMessage("payment declined");
              assertThatThrownBy(() -> service.transactionConnection("o-2"))
                  .hasMessage("payment declined");
              assertThatThrownBy(() -> service.poolConnection("o-3"))
                  .hasMessage("payment declined");

              assertThat(jdbc.queryForObject("SELECT count(*) FROM orders", Integer.class))
                  .as("the orders rolled back")
                  .isZero();
              assertThat(redrive.stats("emails").total()).as("and so did every email").isZero();
            });
  }
}
