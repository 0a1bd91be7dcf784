package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.redrive.Redrive;
import io.redrive.error.StoreException;
import io.redrive.message.NewMessage;
import io.redrive.testkit.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The pool's socket timeout: a statement the database never answers fails instead of blocking
 * forever, while the LISTEN connection idles longer than the timeout without being cut.
 */
class PostgresSocketTimeoutTest {
  private String schema;

  @BeforeEach
  void setUp() {
    schema = TestPostgres.createSchema("sockto");
  }

  @AfterEach
  void tearDown() {
    TestPostgres.dropSchema(schema);
  }

  @Test
  void socketTimeout_outOfRangeOrFractional_namesTheSettingAndValue() {
    PostgresStoreBuilder b = PostgresStore.builder("jdbc:postgresql://h/db");
    for (Duration bad :
        new Duration[] {
          Duration.ofMillis(500),
          Duration.ofMillis(1500),
          Duration.ofHours(2),
          Duration.ofSeconds(-1)
        }) {
      assertThatThrownBy(() -> b.socketTimeout(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("socketTimeout: ")
          .hasMessageContaining(bad.toString());
    }
    b.socketTimeout(Duration.ZERO).socketTimeout(Duration.ofSeconds(1));
  }

  @Test
  void socketTimeout_onADataSourceStore_isRefused() {
    PGSimpleDataSource source = new PGSimpleDataSource();
    assertThatThrownBy(() -> PostgresStore.builder(source).socketTimeout(Duration.ofSeconds(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("socketTimeout: set it on your DataSource");
  }

  @Test
  void statementTheDatabaseNeverAnswers_failsAsALostConnection_afterTheSocketTimeout()
      throws Exception {
    try (PostgresStore store =
            PostgresStore.builder(TestPostgres.adminUrl())
                .schema(schema)
                .poolSize(2)
                .socketTimeout(Duration.ofSeconds(1))
                .build();
        Connection blocker = DriverManager.getConnection(TestPostgres.adminUrl())) {
      Redrive.builder(store).build().createQueue("q");
      // A lock the store's statement waits on: the database sends nothing, as when it hangs.
      blocker.setAutoCommit(false);
      try (Statement s = blocker.createStatement()) {
        s.execute("LOCK TABLE " + schema + ".redrive_queues IN ACCESS EXCLUSIVE MODE");
      }
      try {
        // The bound only turns a missing timeout into a failure instead of a hung build.
        assertTimeoutPreemptively(
            Duration.ofSeconds(30),
            () ->
                assertThatThrownBy(() -> store.findQueue("q"))
                    .isInstanceOfSatisfying(
                        StoreException.class,
                        e -> assertThat(e.sqlState()).as(e.getMessage()).startsWith("08")));
      } finally {
        blocker.rollback();
      }
      // The pool dropped the cut connection; the store answers again.
      assertThat(store.findQueue("q")).isPresent();
    }
  }

  @Test
  void listenConnection_idleLongerThanTheSocketTimeout_isNotCut_andStillWakes() throws Exception {
    try (PostgresStore listening =
            PostgresStore.builder(TestPostgres.adminUrl())
                .schema(schema)
                .poolSize(2)
                .socketTimeout(Duration.ofSeconds(1))
                .build();
        PostgresStore other =
            PostgresStore.builder(TestPostgres.adminUrl()).schema(schema).poolSize(2).build()) {
      Redrive.builder(listening).build().createQueue("q");
      CountDownLatch woken = new CountDownLatch(1);
      try (var subscription = listening.subscribeReady("q", woken::countDown)) {
        await().atMost(Duration.ofSeconds(10)).until(() -> listenerPid() != 0);
        int pid = listenerPid();
        // Three socket timeouts of idling: the same session keeps listening.
        await()
            .during(Duration.ofSeconds(3))
            .atMost(Duration.ofSeconds(10))
            .until(() -> listenerPid() == pid);
        Redrive.builder(other).build().enqueue(NewMessage.builder("q", "t").build());
        assertThat(woken.await(10, TimeUnit.SECONDS)).as("woken by NOTIFY").isTrue();
      }
    }
  }

  /** The backend pid LISTENing on this schema's channel, or 0. */
  private int listenerPid() throws SQLException {
    try (Connection c = DriverManager.getConnection(TestPostgres.adminUrl());
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE state = 'idle' AND query = ?")) {
      ps.setString(1, "LISTEN \"" + PostgresDialect.channel(schema) + "\"");
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : 0;
      }
    }
  }
}
