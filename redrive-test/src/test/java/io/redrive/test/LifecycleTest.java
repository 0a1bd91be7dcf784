package io.redrive.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.testkit.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** What the kit leaves behind (nothing), its errors, and how JUnit hands its engine around. */
@RedriveTest
class LifecycleTest {
  private TestRedrive fromBeforeEach;

  @BeforeEach
  void lifecycleMethodsGetTheSameEngine(TestRedrive kit) {
    fromBeforeEach = kit;
  }

  @Test
  void aTestAndItsLifecycleMethodsShareOneEngine(TestRedrive kit) {
    assertThat(kit).isSameAs(fromBeforeEach);
  }

  @Nested
  class Nested_ {
    @Test
    void nestedClassesShareTheEnclosingEngine(TestRedrive kit) {
      assertThat(kit).isSameAs(fromBeforeEach);
    }
  }

  @Test
  void aKitOpenedByHandDeletesItsSqliteFileOnClose() {
    Path file;
    try (TestRedrive kit = TestRedrive.open()) {
      file = kit.sqliteFile().orElseThrow();
      kit.queue("q");
      kit.engine().enqueue(NewMessage.builder("q", "t").payload("{}").build());
      assertThat(file).exists();
      assertThat(kit.schema()).isEmpty();
    }
    assertThat(Files.exists(file)).isFalse();
    assertThat(Files.exists(file.getParent())).isFalse();
  }

  @Test
  void aPostgresKitDropsItsSchemaOnClose() throws Exception {
    String schema;
    TestRedrive kit =
        new TestRedrive(
            PostgresTestStores.open(TestPostgres.adminUrl(), null, LifecycleTest.class.getName()),
            b -> b.completionWindow(Duration.ofMinutes(1)));
    try (kit) {
      schema = kit.schema().orElseThrow();
      assertThat(schema).startsWith("redrive_test_lifecycletest_").hasSizeLessThanOrEqualTo(63);
      assertThat(kit.sqliteFile()).isEmpty();
      assertThat(kit.engine().completionWindow()).isEqualTo(Duration.ofMinutes(1));
      assertThat(schemaExists(schema)).isTrue();
    }
    assertThat(schemaExists(schema)).isFalse();
  }

  private static boolean schemaExists(String schema) throws Exception {
    try (Connection c = PgData.source().getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT 1 FROM information_schema.schemata WHERE schema_name = ?")) {
      s.setString(1, schema);
      try (ResultSet r = s.executeQuery()) {
        return r.next();
      }
    }
  }

  @Test
  void schemaNamesAreSafeForAnyClassName() {
    String name =
        PostgresTestStores.schemaFor(
            "com.example.Ä-Very$Long.ClassNameThatGoesOnAndOnForeverAndEver");
    assertThat(name).matches("[a-z0-9_]+").hasSizeLessThanOrEqualTo(63);
  }

  @Test
  void aUrlThatIsNotPostgresIsRefusedByName() {
    assertThatThrownBy(() -> RedriveExtension.postgres("jdbc:mysql://db/app?password=secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PostgreSQL JDBC url")
        .hasMessageContaining("password=***")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> RedriveExtension.postgres((String) null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void drainOptionsAreChecked() {
    assertThatThrownBy(() -> Drain.defaults().atMost(0))
        .hasMessageContaining("maxMessages: must be at least 1");
    assertThatThrownBy(() -> Drain.defaults().onThreads(65))
        .hasMessageContaining("threads: must be 1-64");
  }

  @Test
  void theClockOnlyMovesForward(TestClock clock, Redrive engine) {
    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
        .hasMessageContaining("must be zero or positive");
    clock.advance(Duration.ofDays(1));
    assertThat(engine.clock().instant())
        .isEqualTo(TestRedrive.CLOCK_START.plus(Duration.ofDays(1)));
  }
}
