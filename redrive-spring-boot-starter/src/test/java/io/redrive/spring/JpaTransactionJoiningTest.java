package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.TestPostgres;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The scenario under {@code JpaTransactionManager} (Hibernate): a transaction persists an
 * order, enqueues an email, then throws; the order and the email roll back together, by each of the
 * three ways of enqueuing; on commit both are there.
 */
class JpaTransactionJoiningTest {
  private static final String QUEUE = "emails";

  /** An order row, persisted through JPA. */
  @Entity
  @Table(name = "orders")
  public static class OrderRow {
    @Id private String id;

    protected OrderRow() {}

    OrderRow(String id) {
      this.id = id;
    }
  }

  /** Makes this package the one JPA scans for entities. */
  @Configuration(proxyBeanMethods = false)
  @AutoConfigurationPackage
  static class Entities {}

  private String database;
  private ApplicationContextRunner runner;

  @BeforeEach
  void createDatabase() {
    database = TestPostgres.createDatabase("springjpa");
    runner =
        new ApplicationContextRunner()
            .withConfiguration(
                AutoConfigurations.of(
                    BootClasses.dataSource(),
                    BootClasses.hibernateJpa(),
                    BootClasses.transaction(),
                    RedriveAutoConfiguration.class))
            .withUserConfiguration(Entities.class)
            .withPropertyValues(
                "spring.datasource.url=" + TestPostgres.urlForDatabase(database),
                "spring.jpa.hibernate.ddl-auto=create");
  }

  @AfterEach
  void dropDatabase() {
    TestPostgres.dropDatabase(database);
  }

  @Test
  void theTransactionManagerIsJpas() {
    runner.run(
        context ->
            assertThat(context.getBean(PlatformTransactionManager.class))
                .isInstanceOf(JpaTransactionManager.class));
  }

  @Test
  void orderAndEmail_rollBackTogether_everyWayOfEnqueuing() {
    runner.run(
        context -> {
          Redrive redrive = engine(context);
          DataSource ds = context.getBean(DataSource.class);
          EntityManager em = entityManager(context);
          int n = 0;
          for (String way : EnqueueWays.ALL) {
            String order = "o-" + n++;
            assertThatThrownBy(
                    () ->
                        tx(context)
                            .executeWithoutResult(
                                status -> {
                                  em.persist(new OrderRow(order));
                                  em.flush(); // the order's INSERT runs now, in the transaction
                                  EnqueueWays.enqueue(way, redrive, ds, QUEUE);
                                  throw new IllegalStateException("payment declined");
                                }))
                .as(way)
                .hasMessage("payment declined");
            assertThat(orders(context)).as(way).isZero();
            assertThat(redrive.stats(QUEUE).total()).as(way).isZero();
          }
        });
  }

  @Test
  void orderAndEmail_commitTogether() {
    runner.run(
        context -> {
          Redrive redrive = engine(context);
          DataSource ds = context.getBean(DataSource.class);
          EntityManager em = entityManager(context);
          tx(context)
              .executeWithoutResult(
                  status -> {
                    em.persist(new OrderRow("o-1"));
                    EnqueueWays.enqueue(EnqueueWays.PLAIN, redrive, ds, QUEUE);
                    EnqueueWays.enqueue(EnqueueWays.TRANSACTION_CONNECTION, redrive, ds, QUEUE);
                    EnqueueWays.enqueue(EnqueueWays.POOL_CONNECTION, redrive, ds, QUEUE);
                  });
          assertThat(orders(context)).isOne();
          assertThat(redrive.stats(QUEUE).total()).isEqualTo(3);
        });
  }

  /** The transaction-bound EntityManager, as an injected one would be. */
  private static EntityManager entityManager(ApplicationContext context) {
    return SharedEntityManagerCreator.createSharedEntityManager(
        context.getBean(EntityManagerFactory.class));
  }

  private static TransactionTemplate tx(ApplicationContext context) {
    return new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
  }

  private static int orders(ApplicationContext context) {
    return new JdbcTemplate(context.getBean(DataSource.class))
        .queryForObject("SELECT count(*) FROM orders", Integer.class);
  }

  private static Redrive engine(ApplicationContext context) {
    Redrive redrive = context.getBean(Redrive.class);
    redrive.declareQueue(QUEUE, QueuePolicy.defaults());
    return redrive;
  }
}
