package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.testkit.ReadmeBlocks;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/testing.md's Spring Boot example is exactly the test this application's build runs. */
class TestingDocsTest {
  @Test
  void docs_showTheSpringBootExampleTheBuildRuns() throws Exception {
    Path source =
        Path.of("src", "test", "java", "com", "example", "orders", "OrdersTestKitTest.java");
    assertThat(ReadmeBlocks.block(Path.of("..", "..", "docs", "testing.md"), "OrdersTestKitTest"))
        .isEqualTo(Files.readString(source).strip());
  }
}
