package com.example.orders;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.spring.RedriveAutoConfiguration;
import io.redrive.test.MessageMatcher;
import io.redrive.test.TestClock;
import io.redrive.test.TestRedrive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@DirtiesContext
@SpringBootTest
public final class OrdersTestKitTest {
  @TestConfiguration
  static class RedriveClock {
    @Bean(RedriveAutoConfiguration.REDRIVE_CLOCK)
    TestClock redriveClock() {
      return new TestClock(TestRedrive.CLOCK_START);
    }
  }

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) throws IOException {
    Path dir = Files.createTempDirectory("orders-testkit");
    registry.add("spring.datasource.url", () -> "jdbc:sqlite:" + dir.resolve("orders.db"));
  }

  @Autowired Orders orders;
  @Autowired Redrive engine;

  @Test
  void aPlacedOrderEnqueuesItsEmail_aDeclinedOneEnqueuesNothing() {
    TestRedrive redrive = TestRedrive.wrap(engine);
    engine.pauseQueue("emails"); // the application's workers leave the queue to the assertions

    orders.place("o-1", "ann", false);
    assertThatThrownBy(() -> orders.place("o-2", "bob", true)).hasMessageContaining("declined");

    redrive.assertEnqueued("emails", MessageMatcher.type("order-placed").payload("$.order", "o-1"));
    redrive.assertNotEnqueued("emails", MessageMatcher.any().payload("$.order", "o-2"));
    redrive.advance(Duration.ofDays(1)); // the engine's clock is the test's
    engine.resumeQueue("emails");
  }
}
