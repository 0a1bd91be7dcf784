package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.Redrive;
import io.redrive.testkit.TestPostgres;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.WorkflowClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The example end to end on PostgreSQL, under Spring Boot's own dependency versions: an order's
 * email is sent by the handler bean; a failed payment leaves neither the order nor its email; the
 * handler's work shows in the application's meter registry and Redrive in the health endpoint.
 */
// Closed after the class, before the test JVM stops its PostgreSQL: no worker polls a dead server.
@DirtiesContext
@SpringBootTest
class OrdersApplicationTest {
  private static final String DATABASE = TestPostgres.createDatabase("example");

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", () -> TestPostgres.urlForDatabase(DATABASE));
  }

  @Autowired Orders orders;
  @Autowired Redrive redrive;
  @Autowired JdbcTemplate jdbc;
  @Autowired HealthEndpoint health;
  @Autowired MeterRegistry meters;

  @Autowired WorkflowClient workflows;

  @Test
  void aPlacedOrder_getsItsEmail_andIsFulfilled() {
    orders.place("o-1", "ann", false);
    await().atMost(Duration.ofSeconds(30)).until(() -> sent("o-1") == 1);
    assertThat(redrive.stats("emails").total()).isZero();
    InstanceInfo fulfilled = workflows.await("fulfil-o-1", Duration.ofSeconds(30));
    assertThat(fulfilled.status()).isEqualTo(InstanceStatus.COMPLETED);
    assertThat(
            jdbc.queryForObject(
                "SELECT count(*) FROM reservations WHERE order_id = 'o-1'", Integer.class))
        .isOne();
  }

  @Test
  void aFailedPayment_leavesNeitherTheOrderNorItsEmail() {
    assertThatThrownBy(() -> orders.place("o-2", "bob", true))
        .hasMessageContaining("payment declined");
    assertThat(jdbc.queryForObject("SELECT count(*) FROM orders WHERE id = 'o-2'", Integer.class))
        .isZero();
    assertThat(redrive.stats("emails").total()).isZero();
    assertThat(sent("o-2")).isZero();
    assertThat(workflows.get("fulfil-o-2")).as("no fulfilment either").isEmpty();
  }

  @Test
  void metrics_timeTheEmailHandler_inTheApplicationsRegistry() {
    orders.place("o-3", "cy", false);
    await().atMost(Duration.ofSeconds(30)).until(() -> sent("o-3") == 1);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        meters
                            .find("redrive.worker.handler.duration")
                            .tag("queue", "emails")
                            .timers())
                    .isNotEmpty()
                    .allSatisfy(t -> assertThat(t.count()).isPositive()));
  }

  @Test
  void health_showsRedriveUp() {
    assertThat(health.healthForPath("redrive").getStatus()).isEqualTo(Status.UP);
  }

  private int sent(String order) {
    return jdbc.queryForObject(
        "SELECT count(*) FROM sent_emails WHERE order_id = ?", Integer.class, order);
  }
}
