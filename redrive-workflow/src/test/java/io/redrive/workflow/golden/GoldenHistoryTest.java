package io.redrive.workflow.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.workflow.WorkflowEvent;
import io.redrive.workflow.WorkflowReplayer;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Histories recorded by an earlier build on both stores (see {@link GoldenHistoryRecorder}) must
 * still decode and replay: no stored instance may break on upgrade.
 */
class GoldenHistoryTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static String fileName(String instanceId) {
    return instanceId.replace("::", "__") + ".json";
  }

  static Stream<Path> goldenFiles() {
    try {
      Path root = Path.of(GoldenHistoryTest.class.getResource("/golden-histories").toURI());
      try (Stream<Path> files = Files.walk(root)) {
        return files.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void goldenFiles_bothStores_everyInstanceOfEveryScenario() {
    List<String> names =
        goldenFiles().map(p -> p.getParent().getFileName() + "/" + p.getFileName()).toList();

    assertThat(names).hasSize(2 * 12);
    for (String root : GoldenScenarios.ROOTS) {
      assertThat(names).contains("sqlite/" + fileName(root), "postgres/" + fileName(root));
    }
  }

  @Test
  void goldenFiles_holdEveryEventKind() {
    Set<String> kinds = new HashSet<>();
    goldenFiles()
        .forEach(f -> WorkflowReplayer.fromJson(read(f)).forEach(r -> kinds.add(r.kind())));

    assertThat(kinds).containsExactlyInAnyOrderElementsOf(EventKind.ALL);
  }

  @ParameterizedTest
  @MethodSource("goldenFiles")
  void goldenHistory_everyEventDecodesAndWritesBackTheSame(Path file) throws Exception {
    for (WorkflowEvent e : WorkflowReplayer.fromJson(read(file))) {
      HistoryRow row =
          new HistoryRow(
              e.executionId(),
              e.eventId(),
              e.kind(),
              e.seq(),
              e.name(),
              e.data(),
              e.turn(),
              e.at());
      HistoryEvent event = HistoryEvent.parse(row, MAPPER);
      EventCodec.Stored written = EventCodec.encode(event.event());

      String where = file.getFileName() + " event " + row.eventId();
      assertThat(written.kind()).as(where).isEqualTo(row.kind());
      assertThat(written.seq()).as(where).isEqualTo(row.seq());
      assertThat(written.name()).as(where).isEqualTo(row.name());
      // Same keys, same values, same order: the bytes a history counts stay the same.
      assertThat(MAPPER.writeValueAsString(written.data()))
          .as(where)
          .isEqualTo(MAPPER.writeValueAsString(MAPPER.readTree(row.data())));
    }
  }

  @ParameterizedTest
  @MethodSource("goldenFiles")
  void goldenHistory_replaysAgainstItsCode(Path file) {
    WorkflowReplayer.replay(GoldenScenarios.registry(true), read(file));
  }
}
