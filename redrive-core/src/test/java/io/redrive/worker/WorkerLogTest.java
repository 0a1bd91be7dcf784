package io.redrive.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The worker logs under the one name docs/worker.md gives, so logging configurations keep working.
 */
class WorkerLogTest {
  @Test
  void theLoggerNameIsTheDocumentedOne() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "worker.md"));
    assertThat(doc).contains("SLF4J logger `" + WorkerLog.NAME + "`");
    assertThat(WorkerLog.NAME).isEqualTo("io.redrive.worker.Worker");
  }
}
