package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code redrive workflow ...} against a live server running a workflow runtime: output, JSON and
 * exit codes (7 when an instance ended failed or terminated, 8 when a replay check finds breaking
 * instances).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a wait that never ends fails its test, not CI
class WorkflowCommandsTest {
  @TempDir static Path dir;
  private static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.startWithWorkflows(dir.resolve("data"), TestWorkflows::runtime);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Cli.Result cli(String... args) {
    return server.cli(args);
  }

  @Test
  void nodes_listTheServersRuntime() {
    Cli.Result table = cli("workflow", "nodes");
    Cli.Result json = cli("workflow", "nodes", "--json");

    assertThat(table.exit()).as(table.toString()).isZero();
    assertThat(table.out())
        .contains("NODE", "BUILD", "ORCHESTRATIONS")
        .contains("cli-test-node")
        .contains("v1-build")
        .contains("Greet 1.0.0");
    assertThat(json.exit()).as(json.toString()).isZero();
    assertThat(json.out()).contains("\"nodeId\" : \"cli-test-node\"");
  }

  @Test
  void start_orchestrationNoLiveNodeRuns_printsTheWarningAndStarts() {
    Cli.Result started =
        cli("workflow", "start", "NoSuchFlow", "--id", "nobody-1", "--delay", "1h");

    assertThat(started.exit()).as(started.toString()).isZero();
    assertThat(started.out().strip()).isEqualTo("nobody-1");
    assertThat(started.err()).contains("warning: no live node runs orchestration \"NoSuchFlow\"");
    assertThat(cli("workflow", "delete", "nobody-1", "--force").exit()).isZero();
  }

  @Test
  void start_wait_printsTheOutput_andStartWithWaitToo() {
    Cli.Result started = cli("workflow", "start", "Greet", "--id", "greet-1", "--input", "\"ada\"");
    assertThat(started.exit()).as(started.toString()).isZero();
    assertThat(started.out().strip()).isEqualTo("greet-1");

    Cli.Result waited = cli("workflow", "wait", "greet-1", "--for", "30s");
    Cli.Result both =
        cli("workflow", "start", "Greet", "--id", "greet-2", "--input", "\"bo\"", "--wait", "30s");

    assertThat(waited.exit()).as(waited.toString()).isZero();
    assertThat(waited.out().strip()).isEqualTo("\"hello ADA\"");
    assertThat(both.exit()).as(both.toString()).isZero();
    assertThat(both.out().strip()).isEqualTo("\"hello BO\"");
    Cli.Result again = cli("workflow", "start", "Greet", "--id", "greet-1");
    assertThat(again.exit()).as(again.toString()).isEqualTo(4);
    assertThat(again.err()).contains("INSTANCE_EXISTS");
    Cli.Result returned =
        cli("workflow", "start", "Greet", "--id", "greet-1", "--if-exists", "return");
    assertThat(returned.exit()).isZero();
    assertThat(returned.err()).contains("existing instance returned");
  }

  @Test
  void start_applicationFailure_waitExits7WithTheFailure() {
    Cli.Result r =
        cli(
            "workflow",
            "start",
            "Throws",
            "--id",
            "throws-1",
            "--input",
            "\"no\"",
            "--wait",
            "30s");

    assertThat(r.exit()).as(r.toString()).isEqualTo(7);
    assertThat(r.out()).contains("FAILED").contains("the code decided: no");
    Cli.Result retry = cli("workflow", "retry", "throws-1");
    assertThat(retry.exit()).as(retry.toString()).isEqualTo(4);
    assertThat(retry.err()).contains("NOT_RETRYABLE");
  }

  @Test
  void badInput_usageOrServerRefusal_nothingStarted() {
    Cli.Result badJson = cli("workflow", "start", "Greet", "--id", "bad-1", "--input", "{nope");
    Cli.Result badDelay = cli("workflow", "start", "Greet", "--id", "bad-1", "--delay", "soon");
    Cli.Result badId = cli("workflow", "start", "Greet", "--id", "bad id");

    assertThat(badJson.exit()).as(badJson.toString()).isIn(1, 2);
    assertThat(badJson.err()).contains("--input");
    assertThat(badDelay.exit()).as(badDelay.toString()).isEqualTo(2);
    assertThat(badId.exit()).as(badId.toString()).isEqualTo(1);
    assertThat(badId.err()).contains("id:");
    assertThat(cli("workflow", "show", "bad-1").exit()).isEqualTo(3);
    assertThat(cli("workflow", "wait", "nobody").exit()).isEqualTo(3);
  }

  @Test
  void raiseAndTerminate_eventsDeliver_terminatedWaitExits7() {
    assertThat(cli("workflow", "start", "Gate", "--id", "gate-1", "--input", "\"small\"").exit())
        .isZero();
    Cli.Result raised = cli("workflow", "raise", "gate-1", "open", "--payload", "\"go\"");
    assertThat(raised.exit()).as(raised.toString()).isZero();
    assertThat(cli("workflow", "wait", "gate-1", "--for", "30s").out().strip()).isEqualTo("\"go\"");
    Cli.Result late = cli("workflow", "raise", "gate-1", "open");
    assertThat(late.exit()).as(late.toString()).isEqualTo(4);
    assertThat(late.err()).contains("INSTANCE_NOT_RUNNING");

    cli("workflow", "start", "Gate", "--id", "gate-2", "--input", "\"small\"");
    Cli.Result still = cli("workflow", "wait", "gate-2", "--for", "300ms");
    assertThat(still.exit()).as(still.toString()).isEqualTo(1);
    assertThat(still.err()).contains("STILL_RUNNING");
    Cli.Result term = cli("workflow", "terminate", "gate-2", "--reason", "no longer needed");
    assertThat(term.exit()).as(term.toString()).isZero();
    Cli.Result ended = cli("workflow", "wait", "gate-2", "--for", "30s");
    assertThat(ended.exit()).as(ended.toString()).isEqualTo(7);
    assertThat(ended.out()).contains("TERMINATED").contains("no longer needed");
  }

  @Test
  void poisonShowRetry_showPrintsFailureLastAttemptAndTimeline() {
    TestWorkflows.BROKEN.add("f-1");
    cli("workflow", "start", "Fragile", "--id", "fragile-1", "--input", "\"f-1\"");
    Cli.Result failed = cli("workflow", "wait", "fragile-1", "--for", "30s");
    assertThat(failed.exit()).as(failed.toString()).isEqualTo(7);

    Cli.Result show = cli("workflow", "show", "fragile-1");

    assertThat(show.exit()).as(show.toString()).isZero();
    assertThat(show.out())
        .contains("status")
        .contains("FAILED")
        .contains(
            "failure: poison: orchestration fragile-1 exceeded 3 attempts (max 2); last attempt:"
                + " NODE_ERROR: java.lang.NoClassDefFoundError: com/example/Gone (mid-deploy)")
        .contains("last attempt: turn try 2 on cli-test-node (build v1-build)")
        .contains("timeline:")
        .contains("turn try 1 on cli-test-node (build v1-build): NODE_ERROR")
        .contains("ORCHESTRATION_FAILED");
    Cli.Result grouped = cli("workflow", "list", "--group");
    assertThat(grouped.out()).contains("POISON Fragile@1.0.0").contains("fragile-1");
    Cli.Result reason = cli("workflow", "list", "--reason", "poison", "--quiet");
    assertThat(reason.out()).contains("fragile-1").doesNotContain("throws-1");

    TestWorkflows.BROKEN.remove("f-1");
    Cli.Result retried = cli("workflow", "retry", "fragile-1", "--note", "fixed the deploy");
    assertThat(retried.exit()).as(retried.toString()).isZero();
    Cli.Result done = cli("workflow", "wait", "fragile-1", "--for", "30s");
    assertThat(done.exit()).as(done.toString()).isZero();
    assertThat(done.out().strip()).isEqualTo("\"fixed\"");
    Cli.Result history = cli("workflow", "history", "fragile-1", "--execution", "all");
    assertThat(history.out()).contains("ORCHESTRATION_RETRIED").contains("ORCHESTRATION_COMPLETED");
  }

  @Test
  void activityNoWorkerHasAHandlerFor_waitAndShowNameTheUnregisteredHandler() {
    cli("workflow", "start", "Unhandled", "--id", "nowhere-1", "--input", "\"x\"");

    // A worker without a handler for "Nowhere" bounces it, as docs/api.md says, until it poisons.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              Cli.Result leased =
                  cli(
                      "lease",
                      "wf.activities",
                      "--type",
                      "Nowhere",
                      "--worker",
                      "no-handler",
                      "--wait",
                      "200ms",
                      "--quiet");
              leased
                  .out()
                  .lines()
                  .map(String::strip)
                  .filter(token -> !token.isEmpty())
                  .forEach(
                      token ->
                          cli(
                              "fail",
                              token,
                              "--reason",
                              "UNREGISTERED_HANDLER",
                              "--retry-after",
                              "10ms"));
              return cli("workflow", "list", "--status", "failed", "--quiet")
                  .out()
                  .contains("nowhere-1");
            });

    Cli.Result waited = cli("workflow", "wait", "nowhere-1", "--for", "5s");
    Cli.Result show = cli("workflow", "show", "nowhere-1");

    String cause =
        "poison: activity Nowhere#1 exceeded 3 attempts (max 2); last attempt:"
            + " UNREGISTERED_HANDLER: no handler for type Nowhere on worker no-handler";
    assertThat(waited.exit()).as(waited.toString()).isEqualTo(7);
    assertThat(waited.out()).contains("FAILED: " + cause);
    assertThat(show.exit()).as(show.toString()).isZero();
    assertThat(show.out())
        .contains("failure: " + cause)
        .contains("last attempt: delivery 2 to no-handler")
        .contains("activity Nowhere delivery 2 to no-handler: ABANDONED (UNREGISTERED_HANDLER)");
  }

  @Test
  void listAndDelete_tablesJsonAndExitCodes() {
    cli("workflow", "start", "Greet", "--id", "list-1", "--input", "\"x\"", "--wait", "30s");

    Cli.Result table = cli("workflow", "list", "--name", "Greet", "--status", "completed");
    Cli.Result json = cli("workflow", "list", "--name", "Greet", "--json");

    assertThat(table.exit()).isZero();
    assertThat(table.out()).contains("ID").contains("list-1").contains("COMPLETED");
    assertThat(json.out()).contains("\"instances\"").contains("list-1");
    Cli.Result deleted = cli("workflow", "delete", "list-1");
    assertThat(deleted.exit()).as(deleted.toString()).isZero();
    assertThat(deleted.out()).contains("1 instance(s)");
    assertThat(cli("workflow", "delete", "list-1").exit()).isEqualTo(3);
    cli("workflow", "start", "Gate", "--id", "del-running", "--input", "\"small\"");
    Cli.Result running = cli("workflow", "delete", "del-running");
    assertThat(running.exit()).isEqualTo(4);
    assertThat(running.err()).contains("TREE_RUNNING");
    assertThat(cli("workflow", "delete", "del-running", "--force").exit()).isZero();
  }

  /** {@code workflow replay-check} of the build {@code TestWorkflows#method} in test-classes. */
  private static Cli.Result replayCheck(String method, String... more) {
    java.util.List<String> args =
        new java.util.ArrayList<>(
            java.util.List.of(
                "workflow",
                "replay-check",
                "--jar",
                Path.of("target", "test-classes").toString(),
                "--registry",
                TestWorkflows.class.getName() + "#" + method));
    args.addAll(java.util.List.of(more));
    return cli(args.toArray(String[]::new));
  }

  @Test
  void replayCheck_20Live_changedBuildBreaksExactlyThe5LargeOrders_exit8_unchangedPasses() {
    // 20 live instances; the changed build breaks the 5 large orders, which ran an activity
    java.util.List<String> big = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String in = (i % 4 == 0 ? "big-" : "small-") + i;
      cli("workflow", "start", "Gate", "--id", "rc-" + in, "--input", "\"" + in + "\"");
      if (in.startsWith("big")) {
        big.add("rc-" + in);
      }
    }
    assertThat(big).hasSize(5);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                cli("workflow", "list", "--name", "Gate", "--status", "running", "--quiet")
                            .out()
                            .lines()
                            .filter(l -> l.startsWith("rc-"))
                            .count()
                        == 20
                    && big.stream()
                        .allMatch(
                            id ->
                                cli("workflow", "history", id)
                                    .out()
                                    .contains("ACTIVITY_COMPLETED")));
    Cli.Result same = replayCheck("v1", "--name", "Gate");
    Cli.Result changed = replayCheck("v2", "--name", "Gate");

    assertThat(same.exit()).as(same.toString()).isZero();
    assertThat(changed.exit()).as(changed.toString()).isEqualTo(8);
    assertThat(changed.out()).contains("NONDETERMINISM").doesNotContain("rc-small-");
    for (String id : big) {
      assertThat(changed.out()).contains(id + " ");
    }
    assertThat(changed.out().lines().filter(l -> l.contains("NONDETERMINISM")).count())
        .as(changed.out())
        .isEqualTo(5);
    Cli.Result json = replayCheck("v2", "--name", "Gate", "--json");
    assertThat(json.exit()).isEqualTo(8);
    assertThat(json.out())
        .contains("\"ok\" : false")
        .contains("\"breaking\" : 5")
        .contains("\"checked\" : 20");
    Cli.Result notRegistry = replayCheck("notARegistry");
    assertThat(notRegistry.exit()).as(notRegistry.toString()).isEqualTo(1);
    assertThat(notRegistry.err()).contains("must be static and return a WorkflowRegistry");
    Cli.Result noJar = cli("workflow", "replay-check", "--jar", "nope.jar", "--registry", "a.B#c");
    assertThat(noJar.exit()).isEqualTo(1);
    assertThat(noJar.err()).contains("no such file nope.jar");
  }

  /** The attempts of the {@code Ship} activity message waiting in {@code wf.activities}, or -1. */
  private static int shipAttempts() throws Exception {
    Cli.Result list = cli("message", "list", "wf.activities", "--type", "Ship", "--json");
    JsonNode messages = new ObjectMapper().readTree(list.out()).path("messages");
    return messages.isEmpty() ? -1 : messages.get(0).path("attempts").asInt();
  }

  @Test
  void anActivityTheServersRegistryLacks_isLeftToTheWorkerThatServesIt() throws Exception {
    Cli.Result started =
        cli("workflow", "start", "ShipElsewhere", "--id", "ship-1", "--input", "\"parcel\"");
    assertThat(started.exit()).as(started.toString()).isZero();
    await().atMost(Duration.ofSeconds(30)).until(() -> shipAttempts() >= 0);
    // The server's activity worker polls every few ms: it would have bounced "Ship" by now.
    await("Ship left untouched by the server's runtime")
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(3))
        .until(() -> shipAttempts() == 0);

    Cli.Result worked =
        cli(
            "work",
            "wf.activities",
            "--type",
            "Ship",
            "--worker",
            "shipper",
            "--result",
            "--once",
            "--exec",
            "echo '\"shipped\"'");
    Cli.Result waited = cli("workflow", "wait", "ship-1", "--for", "30s");
    Cli.Result shown = cli("workflow", "show", "ship-1", "--json");

    assertThat(worked.exit()).as(worked.toString()).isZero();
    assertThat(waited.out().strip()).as(waited.toString()).isEqualTo("\"shipped\"");
    List<JsonNode> deliveries = new ArrayList<>();
    new ObjectMapper()
        .readTree(shown.out())
        .path("timeline")
        .forEach(
            e -> {
              if ("ACTIVITY_ATTEMPT".equals(e.path("kind").asText())) {
                deliveries.add(e);
              }
            });
    assertThat(deliveries).hasSize(1);
    assertThat(deliveries.get(0).path("node").asText()).isEqualTo("shipper");
    assertThat(deliveries.get(0).path("outcome").asText()).isEqualTo("COMPLETED");
  }
}
