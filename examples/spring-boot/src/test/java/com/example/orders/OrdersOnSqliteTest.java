package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The same application on a SQLite file instead of PostgreSQL, nothing else changed: Redrive keeps
 * its tables in the application's file, and the order and its email still commit or roll back
 * together.
 */
// Closed after the class, before the test JVM stops its PostgreSQL: no worker polls a dead server.
@DirtiesContext
@SpringBootTest
class OrdersOnSqliteTest {
  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) throws IOException {
    Path dir = Files.createTempDirectory("orders-sqlite");
    registry.add(
        "spring.datasource.url",
        () -> "jdbc:sqlite:" + dir.resolve("orders.db") + "?busy_timeout=30000");
  }

  @Autowired Orders orders;
  @Autowired Redrive redrive;
  @Autowired Store store;
  @Autowired JdbcTemplate jdbc;

  @Test
  void ordersAndEmails_onTheApplicationsSqliteFile() {
    assertThat(store).isInstanceOf(SqliteStore.class);

    orders.place("s-1", "ann", false);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                jdbc.queryForObject(
                        "SELECT count(*) FROM sent_emails WHERE order_id = 's-1'", Integer.class)
                    == 1);

    assertThatThrownBy(() -> orders.place("s-2", "bob", true))
        .hasMessageContaining("payment declined");
    assertThat(jdbc.queryForObject("SELECT count(*) FROM orders WHERE id = 's-2'", Integer.class))
        .isZero();
    assertThat(redrive.stats("emails").total()).isZero();
  }
}
