package io.redrive.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveKind;
import io.redrive.sqlite.SqliteStore;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code [objectives.<name>]} read from the TOML file and saved at start. */
class ObjectiveDeclarationsTest {
  private static final Path FILE = Path.of("redrive.toml");

  @TempDir Path dir;
  private SqliteStore store;
  private Redrive redrive;
  private final ConfigLoader loader = new ConfigLoader(name -> null);

  @BeforeEach
  void open() {
    store = SqliteStore.open(dir.resolve("redrive.db"), 2);
    redrive = Redrive.builder(store).build();
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void apply_declaredObjectives_areSavedAsWritten() {
    String toml =
        """
        [objectives.orders-start]
        queue = "orders"
        kind = "latency"
        target = 0.95
        bound = "1m"
        window = "1h"
        [objectives.emails-fresh]
        queue = "orders"
        type = "send-email"
        kind = "age"
        target = 0.99
        bound = "5m"
        """;
    assertThat(ObjectiveDeclarations.apply(redrive, loader.parse(toml, FILE)))
        .isEqualTo("declared objectives: [orders-start, emails-fresh]");
    assertThat(redrive.objectives().list())
        .containsExactly(
            new Objective(
                "emails-fresh",
                "orders",
                "send-email",
                null,
                ObjectiveKind.AGE,
                0.99,
                Duration.ofMinutes(5),
                Duration.ofDays(28)),
            new Objective(
                "orders-start",
                "orders",
                null,
                null,
                ObjectiveKind.LATENCY,
                0.95,
                Duration.ofMinutes(1),
                Duration.ofHours(1)));
    assertThat(ObjectiveDeclarations.apply(redrive, loader.parse("", FILE))).isNull();
  }

  @Test
  void load_badObjective_namesTheSetting() {
    assertThatThrownBy(
            () ->
                loader.parse(
                    """
                    [objectives.x]
                    queue = "orders"
                    kind = "latency"
                    target = 1.5
                    bound = "1m"
                    """,
                    FILE))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("objectives.x")
        .hasMessageContaining("target");
    assertThatThrownBy(
            () -> loader.parse("[objectives.x]\nqueue = \"orders\"\nkind = \"age\"\n", FILE))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("target");
  }
}
