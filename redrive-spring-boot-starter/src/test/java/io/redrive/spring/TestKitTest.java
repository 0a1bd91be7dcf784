package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.test.Drain;
import io.redrive.test.MessageMatcher;
import io.redrive.test.TestClock;
import io.redrive.test.TestRedrive;
import io.redrive.worker.HandlerResult;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * docs/testing.md, "With Spring Boot": the test kit on the starter's own engine — a {@code
 * redriveClock} TestClock bean becomes its clock, {@code TestRedrive.wrap} gives the assertions and
 * drain, and an enqueue in a rolled-back {@code @Transactional}-style transaction is not there.
 */
class TestKitTest {
  static final Instant START = Instant.parse("2031-05-01T00:00:00Z");

  @TempDir Path dir;

  @Test
  void theStarterEngineRunsOnTheTestClockAndTheKitSeesItsTransactions() {
    Runners.withTransactions("jdbc:sqlite:" + dir.resolve("app.db"))
        .withBean(RedriveAutoConfiguration.REDRIVE_CLOCK, Clock.class, () -> new TestClock(START))
        .run(
            context -> {
              Redrive engine = context.getBean(Redrive.class);
              TestRedrive redrive = TestRedrive.wrap(engine);
              assertThat(redrive.clock().instant()).isEqualTo(START);
              redrive.queue("emails", QueuePolicy.defaults().withRetry(2, Duration.ofMinutes(5)));
              TransactionTemplate tx =
                  new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
              JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
              jdbc.execute("CREATE TABLE users (email TEXT PRIMARY KEY)");

              assertThatThrownBy(
                      () ->
                          tx.executeWithoutResult(
                              status -> {
                                jdbc.update("INSERT INTO users VALUES ('ann@example.com')");
                                engine.enqueue(welcome("ann@example.com"));
                                throw new IllegalStateException("signup refused");
                              }))
                  .hasMessage("signup refused");
              redrive.assertNotEnqueued("emails", MessageMatcher.type("welcome"));

              tx.executeWithoutResult(status -> engine.enqueue(welcome("bob@example.com")));
              redrive.assertEnqueued(
                  "emails", MessageMatcher.type("welcome").payload("$.to", "bob@example.com"));

              AtomicInteger calls = new AtomicInteger();
              redrive.handle(
                  "emails",
                  "welcome",
                  ctx -> {
                    if (calls.incrementAndGet() == 1) {
                      throw new IllegalStateException("smtp down");
                    }
                    return HandlerResult.complete();
                  });
              assertThat(redrive.drain("emails").failed()).hasSize(1);
              redrive.advance(Duration.ofMinutes(5));
              assertThat(engine.clock().instant()).isEqualTo(START.plus(Duration.ofMinutes(5)));
              assertThat(redrive.drain("emails", Drain.defaults()).completed()).hasSize(1);
            });
  }

  @Test
  void withoutARedriveClockTheKitSaysWhatToAdd() {
    Runners.withTransactions("jdbc:sqlite:" + dir.resolve("app.db"))
        .withBean("someOtherClock", Clock.class, () -> new TestClock(START))
        .run(
            context -> {
              TestRedrive redrive = TestRedrive.wrap(context.getBean(Redrive.class));
              assertThat(context.getBean(Redrive.class).clock()).isNotInstanceOf(TestClock.class);
              assertThatThrownBy(() -> redrive.advance(Duration.ofMinutes(1)))
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessageContaining("a Clock bean named redriveClock");
            });
  }

  private static NewMessage welcome(String to) {
    return NewMessage.builder("emails", "welcome").payload("{\"to\":\"" + to + "\"}").build();
  }
}
