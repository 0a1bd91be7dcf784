package io.redrive.jdbc;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Throughput counters are written only by {@code ThroughputRows}, called from the node's pending
 * counts or an application's transaction (docs/design-decisions.md, 19): no other statement of the
 * store may touch the counter table, and only the classes that count after a commit (and the
 * store's facade, for reads and retention) may call it, so no hot write brings a counter upsert
 * back into its own statements.
 */
class ThroughputRulesTest {
  private static final Path MAIN = Path.of("src/main/java/io/redrive/jdbc");

  private static final Set<String> ALLOWED =
      Set.of(
          "io.redrive.jdbc.ThroughputRows",
          "io.redrive.jdbc.PendingThroughput",
          "io.redrive.jdbc.CountedWrites",
          "io.redrive.jdbc.StoreParts",
          "io.redrive.jdbc.JdbcStore");

  @Test
  void onlyThroughputRowsNamesTheCounterTable() throws IOException {
    List<String> naming;
    try (Stream<Path> files = Files.walk(MAIN)) {
      naming =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> read(p).contains("redrive_throughput"))
              .map(p -> MAIN.relativize(p).toString())
              .toList();
    }

    assertThat(naming).containsExactly("ThroughputRows.java");
  }

  @Test
  void onlyTheCountingClassesAndTheFacadeCallThroughputRows() {
    noClasses()
        .that(
            DescribedPredicate.describe(
                "are not the counting classes or the store's facade",
                (JavaClass c) -> !ALLOWED.contains(c.getName().replaceFirst("\\$.*", ""))))
        .should()
        .accessClassesThat()
        .haveFullyQualifiedName("io.redrive.jdbc.ThroughputRows")
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.redrive.jdbc"));
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
