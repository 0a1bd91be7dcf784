package io.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every class of every module stays small enough to read at once: no main source file over 400
 * lines (the worker's own rule is 300). Two exceptions, decided: the store compliance suite in
 * redrive-testkit (one contract per behaviour, each a long list of small tests) and the facade
 * {@code Redrive} (mostly the Javadoc of the public API). Runs from redrive-cli, whose directory's
 * parent is the repository.
 */
class SourceSizeRulesTest {
  static final int MAX_LINES = 400;

  private static final Path REPOSITORY = Path.of("..");

  @Test
  void noMainSourceFileOfAnyModuleIsOver400Lines() {
    Map<String, Long> tooLong = tooLong(REPOSITORY);

    assertThat(mainSources(REPOSITORY)).as("main source files found").hasSizeGreaterThan(300);
    assertThat(tooLong).as("main source files over " + MAX_LINES + " lines").isEmpty();
  }

  @Test
  void noMainSourceFileOfAnyModuleIsOver400Lines_onAFileOf401Lines_reportsIt(@TempDir Path repo)
      throws IOException {
    Path dir = Files.createDirectories(repo.resolve("redrive-x/src/main/java/io/redrive/x"));
    Files.writeString(dir.resolve("Long.java"), "//\n".repeat(401));
    Files.writeString(dir.resolve("Short.java"), "//\n".repeat(400));

    assertThat(tooLong(repo)).containsOnlyKeys("redrive-x/src/main/java/io/redrive/x/Long.java");
  }

  static Map<String, Long> tooLong(Path repository) {
    Map<String, Long> tooLong = new TreeMap<>();
    for (Path file : mainSources(repository).keySet()) {
      String name = repository.relativize(file).toString().replace('\\', '/');
      if (exempt(name)) {
        continue;
      }
      long lines = lineCount(file);
      if (lines > MAX_LINES) {
        tooLong.put(name, lines);
      }
    }
    return tooLong;
  }

  private static boolean exempt(String name) {
    return name.startsWith("redrive-testkit/src/main/java/io/redrive/testkit/compliance/")
        || name.equals("redrive-core/src/main/java/io/redrive/Redrive.java");
  }

  private static Map<Path, Boolean> mainSources(Path repository) {
    Map<Path, Boolean> files = new TreeMap<>();
    try (Stream<Path> modules = Files.list(repository)) {
      for (Path module :
          modules.filter(p -> p.getFileName().toString().startsWith("redrive")).toList()) {
        Path main = module.resolve("src/main/java");
        if (!Files.isDirectory(main)) {
          continue;
        }
        try (Stream<Path> walk = Files.walk(main)) {
          walk.filter(p -> p.toString().endsWith(".java")).forEach(p -> files.put(p, true));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static long lineCount(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
