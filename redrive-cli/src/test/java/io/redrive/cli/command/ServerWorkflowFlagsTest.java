package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.testing.Cli;
import io.redrive.server.config.WorkflowSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code redrive server}'s workflow runtime flags: each overrides its {@code [workflows]} key, and
 * a bad value (flag or file) stops the start with one line naming it, before the store is touched.
 */
class ServerWorkflowFlagsTest {
  @TempDir Path dir;

  private WorkflowSettings settings(String... args) {
    ServerCommand command = new ServerCommand();
    new CommandLine(command).parseArgs(args);
    return command.settings().workflows();
  }

  @Test
  void settings_workflowFlagsOverrideTheFile() throws Exception {
    Path file = dir.resolve("redrive.toml");
    Files.writeString(
        file,
        "[workflows]\nnodeId = \"file-node\"\nbuildId = \"file-build\"\nmaxBatch = 20\n"
            + "activityQueues = [\"wf.file\"]\nunregisteredBackoff = { max = \"2m\" }\n");

    WorkflowSettings fileOnly = settings("--config", file.toString());
    WorkflowSettings flags =
        settings(
            "--config",
            file.toString(),
            "--node-id",
            "flag-node",
            "--orchestration-concurrency",
            "2",
            "--activity-concurrency",
            "16",
            "--max-attempts",
            "3",
            "--unregistered-backoff",
            "2s:30s",
            "--activity-queue",
            "wf.a",
            "--activity-queue",
            "wf.b",
            "--poll-interval",
            "200ms",
            "--activity-lease-timeout",
            "1m",
            "--history-cache-size",
            "7",
            "--sticky-wait",
            "3s");

    assertThat(fileOnly.nodeId()).isEqualTo("file-node");
    assertThat(fileOnly.activityQueues()).containsExactly("wf.file");
    assertThat(fileOnly.unregisteredBackoffMax()).isEqualTo(Duration.ofMinutes(2));
    assertThat(flags)
        .isEqualTo(
            new WorkflowSettings(
                "flag-node",
                "file-build",
                2,
                16,
                3,
                Duration.ofSeconds(2),
                Duration.ofSeconds(30),
                List.of("wf.a", "wf.b"),
                20,
                Duration.ofMillis(200),
                Duration.ofMinutes(1),
                7,
                Duration.ofSeconds(3)));
  }

  @Test
  void settings_noFileNoFlags_areTheRuntimeDefaults() {
    assertThat(settings("--data-dir", dir.toString())).isEqualTo(WorkflowSettings.defaults());
  }

  private Cli.Result server(String... more) {
    Path data = dir.resolve("data");
    List<String> args =
        new java.util.ArrayList<>(
            List.of("server", "--port", "0", "--data-dir", data.toString(), "--workflows", "demo"));
    args.addAll(List.of(more));
    return Cli.run(args.toArray(String[]::new));
  }

  private void assertRefused(Cli.Result r, String message) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err().lines()).as(r.toString()).hasSize(1);
    assertThat(r.err()).contains(message);
    assertThat(dir.resolve("data")).doesNotExist(); // the store was never opened
  }

  @Test
  void badFlagValues_oneLineNamingTheFlag_storeUntouched() {
    assertRefused(
        server("--orchestration-concurrency", "-1"),
        "--orchestration-concurrency: must be 1-1024, was -1");
    assertRefused(server("--activity-concurrency", "0"), "--activity-concurrency: must be 1-1024");
    assertRefused(
        server("--activity-queue", "bad queue"),
        "--activity-queue: invalid queue name \"bad queue\"");
    assertRefused(
        server("--unregistered-backoff", "10s:1s"),
        "--unregistered-backoff: must be at least the base (10s), was 1s");
    assertRefused(
        server("--unregistered-backoff", "soon"), "--unregistered-backoff: invalid duration");
  }

  @Test
  void malformedDurationFlag_isPicocliUsageErrorNamingTheFlag_storeUntouched() {
    Cli.Result r = server("--poll-interval", "1 sec");

    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err().lines().findFirst().orElseThrow())
        .isEqualTo(
            "Invalid value for option '--poll-interval': invalid duration \"1 sec\" (use whole"
                + " numbers with units, largest first: 500ms, 30s, 5m, 1m30s, 2h, 1d)");
    assertThat(dir.resolve("data")).doesNotExist();
  }

  @Test
  void badWorkflowsKeyInTheFile_oneLineNamingTheKey_storeUntouched() throws Exception {
    Path file = dir.resolve("redrive.toml");
    Files.writeString(file, "[workflows]\ncacheSize = 100\n");

    assertRefused(
        server("--config", file.toString()), "workflows.cacheSize: unknown setting (known: ");
  }

  @Test
  void workflowFlagWithoutWorkflows_isAUsageError() {
    Cli.Result r = Cli.run("server", "--port", "0", "--data-dir", dir.toString(), "--node-id", "x");

    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("--node-id: give --workflows CLASS#METHOD too");
  }

  @Test
  void help_listsEveryWorkflowFlag_asDocsCliMdShows() {
    Cli.Result r = Cli.run("server", "--help");

    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains(
            "--node-id=ID",
            "--build-id=ID",
            "--orchestration-concurrency=N",
            "--activity-concurrency=N",
            "--max-attempts=N",
            "--unregistered-backoff=BASE[:MAX]",
            "--activity-queue=QUEUE",
            "--max-batch=N",
            "--poll-interval=DURATION",
            "--activity-lease-timeout=DURATION",
            "--history-cache-size=N",
            "--sticky-wait=DURATION");
  }
}
