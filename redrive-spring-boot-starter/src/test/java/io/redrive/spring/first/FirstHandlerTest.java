package io.redrive.spring.first;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * docs/spring-boot.md, "A first handler": an application with the starter as its one Redrive
 * dependency, one property and a handler bean runs the handler for what it enqueues. The exclusions
 * stand only because this module's test class path carries the JDBC and JPA starters (for other
 * tests), which a new application without a database would not have.
 */
class FirstHandlerTest {
  @TempDir Path dir;

  @Test
  void oneDependencyOnePropertyAndAHandlerBean_handleWhatIsEnqueued() {
    SpringApplication app = new SpringApplication(FirstApp.class);
    app.setDefaultProperties(java.util.Map.of("redrive.sqlite.data-dir", dir.toString()));
    try (ConfigurableApplicationContext context = app.run()) {
      context
          .getBean(Redrive.class)
          .enqueue(NewMessage.builder("greetings", "hello").payload("\"world\"").build());
      await().atMost(Duration.ofSeconds(20)).until(() -> Greetings.GREETED.contains("\"world\""));
    }
    assertThat(dir.resolve("redrive.db")).exists();
  }
}
