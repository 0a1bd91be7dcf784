package io.redrive.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The worker's classes stay small enough to read at once: no source file over 300 lines. */
class WorkerSourceSizeTest {
  static final int MAX_LINES = 300;

  /** The package's sources, relative to the module directory Maven runs tests in. */
  private static final Path SOURCES = Path.of("src", "main", "java", "io", "redrive", "worker");

  @Test
  void noSourceFileOfTheWorkerIsOver300Lines() throws IOException {
    Map<String, Long> lines = new TreeMap<>();
    try (Stream<Path> files = Files.list(SOURCES)) {
      files
          .filter(p -> p.getFileName().toString().endsWith(".java"))
          .forEach(p -> lines.put(p.getFileName().toString(), lineCount(p)));
    }
    assertThat(lines).containsKeys("Worker.java", "Dispatcher.java");
    assertThat(lines)
        .allSatisfy((file, n) -> assertThat(n).as(file).isLessThanOrEqualTo(MAX_LINES));
  }

  private static long lineCount(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
