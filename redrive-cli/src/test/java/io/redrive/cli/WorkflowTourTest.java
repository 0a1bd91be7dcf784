package io.redrive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.command.DemoWorkflows;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.workflow.WorkflowRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the README's workflow tour as written against a real server running the demo registry: each
 * command's exit code is 0 unless its comment says {@code exit N}; {@code sleep N} sleeps. The
 * instance must be poisoned by the crash-loop breaker, retried, and end with its output.
 */
class WorkflowTourTest {
  private static final Pattern EXIT = Pattern.compile("#\\s*exit (\\d+)");

  @TempDir Path dir;

  @Test
  @Timeout(
      value = 3,
      unit = TimeUnit.MINUTES) // a tour that never ends fails here, not in CI's limit
  void readmeWorkflowTour_runsAsWritten_poisonedThenRetriedToCompletion() throws Exception {
    List<String> tour = tour();
    assertThat(tour.get(0)).startsWith("./redrive server --workflows demo &");
    List<String> outputs = new ArrayList<>();
    try (TestServer server =
        TestServer.startWithWorkflows(
            dir.resolve("data"),
            redrive ->
                WorkflowRuntime.builder(redrive, DemoWorkflows.registry())
                    .roles(WorkflowRuntime.Role.ORCHESTRATIONS)
                    .build())) {
      for (String line : tour) {
        if (line.startsWith("./redrive server ") || line.startsWith("kill %1")) {
          continue; // the test's server plays the tour's background server
        }
        if (line.startsWith("sleep ")) {
          Thread.sleep(Long.parseLong(line.substring(6).trim()) * 1000);
          continue;
        }
        List<String> words = TourTest.words(line, new HashMap<>());
        assertThat(words.get(0)).as(line).isEqualTo("./redrive");
        Cli.Result r = server.cli(words.subList(1, words.size()).toArray(String[]::new));
        Matcher exit = EXIT.matcher(line);
        int expected = exit.find() ? Integer.parseInt(exit.group(1)) : 0;
        assertThat(r.exit()).as(line + "\n" + r).isEqualTo(expected);
        outputs.add(r.out());
      }
    }
    String all = String.join("\n", outputs);
    assertThat(all).contains("crashed 2 workers").contains("POISON welcome@1.0.0");
    assertThat(tour).allMatch(l -> !l.contains("workflow wait") || l.contains("--for"));
    assertThat(outputs.get(outputs.size() - 1).strip()).isEqualTo("\"welcome sent to ada\"");
  }

  /** The commands of the bash block under "### A workflow from the CLI". */
  static List<String> tour() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    int section = readme.indexOf("\n### A workflow from the CLI\n");
    assertThat(section).isPositive();
    int start = readme.indexOf("```bash\n", section) + "```bash\n".length();
    int end = readme.indexOf("```", start);
    List<String> lines = new ArrayList<>();
    for (String line : readme.substring(start, end).split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        lines.add(line.strip());
      }
    }
    return lines;
  }
}
