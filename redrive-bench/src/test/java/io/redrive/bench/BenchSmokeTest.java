package io.redrive.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI form of the benchmark: the smoke profile on both stores, once. Asserts that it ran, wrote
 * its files and that the correctness checks held; never anything about speed.
 */
class BenchSmokeTest {

  @Test
  void smokeProfile_bothStores_writesReportsAndPassesChecks(@TempDir Path dir) throws Exception {
    Path md = dir.resolve("benchmarks.md");
    Path json = dir.resolve("results.json");

    int exit =
        BenchMain.execute(
            "--profile", "smoke",
            "--reps", "1",
            "--stores", "sqlite,postgres",
            "--scenarios", "enqueue,drain,failure,streams",
            "--work-dir", dir.resolve("sqlite").toString(),
            "--out", md.toString(),
            "--json", json.toString());

    assertThat(exit).as("exit code (1 = a check failed or a cell did not run)").isZero();
    assertThat(md).exists();
    assertThat(Files.readString(md)).contains("## Machine", "## 2. Drain", "## 6. Streams");
    JsonNode result = new ObjectMapper().readTree(json.toFile());
    assertThat(result.get("checksPassed").asBoolean()).isTrue();
    List<String> checked = new ArrayList<>();
    for (JsonNode scenario : result.get("scenarios")) {
      assertThat(scenario.get("errors")).as(scenario.get("name").asText()).isEmpty();
      for (JsonNode cell : scenario.get("cells")) {
        for (JsonNode check : cell.get("checks")) {
          assertThat(check.get("passed").asBoolean())
              .as(cell.get("store").asText() + " " + check.get("detail").asText())
              .isTrue();
          checked.add(cell.get("store").asText() + " " + check.get("name").asText());
        }
      }
    }
    if (System.getenv("REDRIVE_PG_URL") == null) {
      // the benchmark's own server loads pg_stat_statements: drains say where their time goes
      for (JsonNode scenario : result.get("scenarios")) {
        for (JsonNode cell : scenario.get("cells")) {
          if (scenario.get("name").asText().equals("drain")
              && cell.get("store").asText().equals("postgres")) {
            for (String side : List.of("ours", "baseline")) {
              assertThat(cell.get(side).get("details").path("statements/msg").asDouble())
                  .as("%s statements per message, %s", side, cell.get("params").asText())
                  .isPositive();
            }
            // Zero is a real figure: a PostgreSQL lease and completion each commit alone.
            assertThat(cell.get("ours").get("details").has("transactions/msg"))
                .as("transactions per message, %s", cell.get("params").asText())
                .isTrue();
          }
        }
      }
    }
    assertThat(checked)
        .contains(
            "sqlite exactly once: completed",
            "postgres exactly once: completed",
            "sqlite exactly once: dead",
            "postgres attempt counts",
            "sqlite stream order",
            "postgres stream order");
  }
}
