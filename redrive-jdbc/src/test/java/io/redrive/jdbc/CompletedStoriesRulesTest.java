package io.redrive.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Completed messages keep their story beside the hot table (docs/design-decisions.md, 26): no
 * statement of the store marks a row of {@code redrive_messages} COMPLETED (a completed message
 * leaves it, so its serve and state indexes hold only what can still be delivered), and only the
 * classes of the completion record and its story name {@code redrive_completions}.
 */
class CompletedStoriesRulesTest {
  private static final Path MAIN = Path.of("src/main/java/io/redrive/jdbc");

  @Test
  void noStatementStoresTheStateCompleted() throws IOException {
    assertThat(sourcesContaining("'COMPLETED'")).isEmpty();
  }

  @Test
  void onlyTheCompletionClassesNameTheCompletionsTable() throws IOException {
    assertThat(sourcesContaining("redrive_completions"))
        .containsExactlyInAnyOrder(
            "CompletionRows.java",
            "CompletedStories.java",
            "CompletedReads.java",
            "IdPrefixes.java",
            "Whereabouts.java");
  }

  private static List<String> sourcesContaining(String text) throws IOException {
    try (Stream<Path> files = Files.walk(MAIN)) {
      return files
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> read(p).contains(text))
          .map(p -> MAIN.relativize(p).toString())
          .toList();
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
