package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.failure.FailureReason;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.message.Message;
import io.redrive.message.MessageIds;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.CreateQueueParams;
import io.redrive.store.EnqueueParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.WorkflowStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker-side commands {@code lease}, {@code complete}, {@code fail} and {@code work}. */
class WorkerCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private TestServer server;

  @BeforeEach
  void start() {
    server = TestServer.start(dir.resolve("data"));
    server.cli("queue", "create", "jobs.dlq");
    server.cli("queue", "create", "jobs", "--retry", "2:0s", "--dead-letter-queue", "jobs.dlq");
  }

  @AfterEach
  void stop() {
    WorkCommand.shell = List.of("sh", "-c");
    server.close();
  }

  @Test
  void lease_printsTokenTypeAttemptAndPayload() {
    String id = server.enqueue("jobs", "send-email", "{\"to\":\"ada\"}");

    Cli.Result r = server.cli("lease", "jobs", "--worker", "w7");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .startsWith("TOKEN ")
        .containsPattern(id + "\\.[0-9a-f]+\\s+send-email\\s+1/2\\s+.*\\{\"to\":\"ada\"}");
    Message m = server.redrive().getMessage(id);
    assertThat(m.state()).isEqualTo(MessageState.LEASED);
    assertThat(m.leasedBy()).isEqualTo("w7");
  }

  @Test
  void lease_quiet_printsOnlyTokens_max_leasesSeveral() {
    server.enqueue("jobs", "t", "{}");
    server.enqueue("jobs", "t", "{}");
    server.enqueue("jobs", "t", "{}");

    Cli.Result r = server.cli("lease", "jobs", "--max", "2", "--quiet");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out().lines()).hasSize(2).allMatch(l -> l.matches("[0-9a-f-]{36}\\.[0-9a-f]+"));
    assertThat(server.redrive().stats("jobs").leased()).isEqualTo(2);
  }

  @Test
  void lease_json_isTheServersAnswer() throws Exception {
    server.enqueue("jobs", "t", "{\"n\":1}");

    Cli.Result r = server.cli("lease", "jobs", "--json", "--lease-timeout", "1m30s");

    JsonNode leased = JSON.readTree(r.out()).get("messages").get(0);
    assertThat(leased.get("payload").get("n").asInt()).isEqualTo(1);
    assertThat(leased.get("token").asText()).isNotBlank();
  }

  @Test
  void lease_emptyQueue_saysSoOnStderrAndExitsZero() {
    Cli.Result r = server.cli("lease", "jobs");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("nothing to lease from jobs\n");
  }

  @Test
  void lease_wait_onAnEmptyQueue_waitsThenSaysSo() {
    Cli.Result r = server.cli("lease", "jobs", "--wait", "200ms");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).isEqualTo("nothing to lease from jobs\n");
  }

  @Test
  void lease_waitLongerThanTimeout_theRequestOutlastsTheWait() {
    Cli.Result r = server.cli("lease", "jobs", "--wait", "1s500ms", "--timeout", "500ms");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).isEqualTo("nothing to lease from jobs\n");
  }

  @Test
  void lease_badWait_isUsage() {
    Cli.Result r = server.cli("lease", "jobs", "--wait", "soon");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("invalid duration \"soon\"");
  }

  @Test
  void lease_unknownQueue_exitsThree() {
    Cli.Result r = server.cli("lease", "nope");

    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.err()).contains("(QUEUE_NOT_FOUND)");
  }

  @Test
  void lease_quietAndJson_isUsage() {
    Cli.Result r = server.cli("lease", "jobs", "--quiet", "--json");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("give --quiet or --json, not both");
  }

  @Test
  void complete_settlesTheLease_twiceSaysAlreadyCompleted_unknownIsNotFound() {
    String id = server.enqueue("jobs", "t", "{}");
    String token = server.cli("lease", "jobs", "-q").out().strip();

    Cli.Result first = server.cli("complete", token);
    Cli.Result second = server.cli("complete", token);
    Cli.Result unknown = server.cli("complete", id + "." + "0".repeat(32));

    assertThat(first.exit()).as(first.toString()).isZero();
    assertThat(first.out()).isEqualTo("completed " + id + "\n");
    assertThat(server.redrive().stats("jobs").total()).isZero();
    assertThat(second.exit()).as(second.toString()).isZero();
    assertThat(second.out())
        .isEqualTo("completed " + id + " (already: this lease had completed it)\n");
    assertThat(unknown.exit()).isEqualTo(3);
    assertThat(unknown.err()).contains("(LEASE_NOT_FOUND)");
  }

  @Test
  void complete_withResult_onAWorkflowOwnedQueue_reachesTheInstance_badJsonIsAUsageError() {
    var store = server.store();
    var workflows = (WorkflowStore) store;
    Instant now = Instant.now();
    store.createQueue(new CreateQueueParams("wf.acts", QueuePolicy.defaults(), true, now));
    workflows.startInstance(
        new StartInstanceParams(
            "order-1", "ship", null, "{}", null, StartInstanceParams.IfExists.FAIL, now));
    var turn =
        workflows.leaseTurn(new LeaseTurnParams("n", Duration.ofMinutes(1), 10, now)).orElseThrow();
    workflows.commitTurn(
        new CommitTurnParams(
            "order-1",
            turn.token(),
            new CommitTurnParams.InstanceUpdate(
                InstanceRow.Status.RUNNING, 1, "1", "{}", null, null, null),
            List.of(),
            List.of(),
            turn.batch().stream().map(InboxRow::seq).toList(),
            List.of(),
            List.of(),
            List.of(
                new CommitTurnParams.ActivityStart(
                    new EnqueueParams.Entry(
                        MessageIds.next(Clock.systemUTC()),
                        NewMessage.builder("wf.acts", "charge").build()),
                    1,
                    "charge",
                    0)),
            now));
    String token = server.cli("lease", "wf.acts", "-q").out().strip();

    Cli.Result bad = server.cli("complete", token, "--result", "{charged");
    Cli.Result done = server.cli("complete", token, "--result", "{\"charged\": 1200}");

    assertThat(bad.exit()).as(bad.toString()).isEqualTo(2);
    assertThat(bad.err()).contains("--result: not JSON");
    assertThat(done.exit()).as(done.toString()).isZero();
    assertThat(workflows.readInbox("order-1"))
        .singleElement()
        .satisfies(r -> assertThat(r.data()).contains("\"result\":{\"charged\":1200}"));
  }

  @Test
  void fail_retriesThenDeadLetters_recordingReasonAndMessage() {
    String id = server.enqueue("jobs", "t", "{}");
    String first = server.cli("lease", "jobs", "-q").out().strip();

    Cli.Result again =
        server.cli("fail", first, "--reason", "dependency_failure", "--message", "smtp down");
    String second = server.cli("lease", "jobs", "-q").out().strip();
    Cli.Result dead = server.cli("fail", second, "--message", "smtp still down");

    assertThat(again.exit()).as(again.toString()).isZero();
    assertThat(again.out()).isEqualTo("failed " + id + ": ready again\n");
    assertThat(dead.exit()).as(dead.toString()).isZero();
    assertThat(dead.out())
        .isEqualTo("failed " + id + ": dead (HANDLER_EXCEPTION), moved to jobs.dlq\n");
    Message letter =
        server.redrive().getMessage(server.cli("message", "list", "jobs.dlq", "-q").out().strip());
    assertThat(letter.history())
        .extracting(e -> e.failure() == null ? null : e.failure().message())
        .contains("smtp down", "smtp still down");
  }

  @Test
  void fail_notRetryable_diesAtOnce() {
    String id = server.enqueue("jobs", "t", "{}");
    String token = server.cli("lease", "jobs", "-q").out().strip();

    Cli.Result r =
        server.cli("fail", token, "--reason", "VALIDATION_FAILURE", "--not-retryable", "--json");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("\"state\" : \"DEAD\"").contains(id);
  }

  @Test
  void fail_retryAfter_schedulesTheRetry() {
    server.enqueue("jobs", "t", "{}");
    String token = server.cli("lease", "jobs", "-q").out().strip();

    Cli.Result r = server.cli("fail", token, "--retry-after", "1h30m");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains(": retry at ");
    assertThat(server.redrive().stats("jobs").scheduled()).isEqualTo(1);
  }

  @Test
  void fail_staleToken_isLeaseLostAndChangesNothing() {
    String id = server.enqueue("jobs", "t", "{}");
    String stale = server.cli("lease", "jobs", "-q").out().strip();
    server.cli("fail", stale);
    String current = server.cli("lease", "jobs", "-q").out().strip();

    Cli.Result r = server.cli("fail", stale);

    assertThat(r.exit()).isEqualTo(4);
    assertThat(r.err()).contains("(LEASE_LOST)");
    assertThat(current).isNotEqualTo(stale);
    assertThat(server.redrive().getMessage(id).state()).isEqualTo(MessageState.LEASED);
  }

  @Test
  void fail_unknownReason_isRefusedByTheServer() {
    server.enqueue("jobs", "t", "{}");
    String token = server.cli("lease", "jobs", "-q").out().strip();

    Cli.Result r = server.cli("fail", token, "--reason", "BOGUS");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("BOGUS");
  }

  @Test
  void work_runsTheCommandPerMessage_payloadOnStdin_idTypeAttemptInEnv() throws Exception {
    Path log = dir.resolve("log.txt");
    String a = server.enqueue("jobs", "send-email", "{\"n\":1}");
    String b = server.enqueue("jobs", "send-sms", "{\"n\":2}");

    Cli.Result r =
        server.cli(
            "work",
            "jobs",
            "--exec",
            "printf '%s %s %s %s ' \"$REDRIVE_MESSAGE_ID\" \"$REDRIVE_MESSAGE_TYPE\""
                + " \"$REDRIVE_ATTEMPT\" \"$REDRIVE_QUEUE\" >> '"
                + log
                + "'; cat >> '"
                + log
                + "'; echo >> '"
                + log
                + "'; echo handled");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(Files.readAllLines(log))
        .containsExactly(a + " send-email 1 jobs {\"n\":1}", b + " send-sms 1 jobs {\"n\":2}");
    assertThat(r.out()).isEqualTo("handled\nhandled\n");
    assertThat(r.err())
        .contains("completed " + a + "\n")
        .contains("completed " + b + "\n")
        .endsWith("worked on 2 messages from jobs: 2 completed, 0 failed\n");
    assertThat(server.redrive().stats("jobs").total()).isZero();
  }

  @Test
  void work_passesTheMessagesTraceContextAsTraceparentAndTracestate() throws Exception {
    Path log = dir.resolve("trace.txt");
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    String traced =
        server
            .redrive()
            .enqueue(
                NewMessage.builder("jobs", "traced")
                    .headers(Map.of("traceparent", traceparent, "tracestate", "vendor=x"))
                    .build())
            .id();
    assertThat(server.cli("message", "show", traced).out())
        .containsPattern("trace id +4bf92f3577b34da6a3ce929d0e0e4736\n");
    server
        .redrive()
        .enqueue(NewMessage.builder("jobs", "junk").headers(Map.of("traceparent", "junk")).build());
    server.enqueue("jobs", "plain", "{}");

    Cli.Result r =
        server.cli(
            "work",
            "jobs",
            "--exec",
            "echo \"$REDRIVE_MESSAGE_TYPE [${TRACEPARENT-unset}] [${TRACESTATE-unset}]\" >> '"
                + log
                + "'");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(Files.readAllLines(log))
        .containsExactly(
            "traced [" + traceparent + "] [vendor=x]",
            "junk [unset] [unset]",
            "plain [unset] [unset]");
  }

  @Test
  void leaseAndWork_type_takeOnlyThoseTypes_leaveTheOthersUntouched() {
    String email = server.enqueue("jobs", "send-email", "{}");
    String sms = server.enqueue("jobs", "send-sms", "{}");
    String push = server.enqueue("jobs", "send-push", "{}");

    Cli.Result leased =
        server.cli("lease", "jobs", "--max", "5", "--type", "send-sms", "--type", "nothing");
    Cli.Result worked =
        server.cli("work", "jobs", "--type", "send-push", "--exec", "cat > /dev/null");

    assertThat(leased.exit()).as(leased.toString()).isZero();
    assertThat(leased.out()).contains(sms).doesNotContain(email).doesNotContain(push);
    assertThat(worked.exit()).as(worked.toString()).isZero();
    assertThat(worked.err())
        .contains("completed " + push + "\n")
        .endsWith("worked on 1 message from jobs: 1 completed, 0 failed\n");
    Message untouched = server.redrive().getMessage(email);
    assertThat(untouched.state()).isEqualTo(MessageState.READY);
    assertThat(untouched.attempts()).isZero();
  }

  @Test
  void lease_blankType_isRefusedByTheServerNamingIt() {
    server.enqueue("jobs", "t", "{}");

    Cli.Result r = server.cli("lease", "jobs", "--type", " ");

    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("types[0]: must not be blank");
  }

  @Test
  void work_nonZeroExit_failsWithTheExitCodeAndStderrTail() {
    String id = server.enqueue("jobs", "t", "{}");

    Cli.Result r =
        server.cli("work", "jobs", "--once", "--exec", "echo 'no such user' >&2; exit 3");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).contains("failed " + id + " (exit 3): ready again");
    Message m = server.redrive().getMessage(id);
    assertThat(m.state()).isEqualTo(MessageState.READY);
    assertThat(m.lastError().reason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(m.lastError().message()).isEqualTo("exit 3: no such user");
    assertThat(m.lastError().stackTrace()).isEqualTo("no such user");
  }

  @Test
  void work_exitCodes_75IsDependencyFailure_65IsValidationFailureDeadAtOnce() {
    String retry = server.enqueue("jobs", "retry", "{}");
    String invalid = server.enqueue("jobs", "invalid", "{}");

    Cli.Result r =
        server.cli(
            "work",
            "jobs",
            "--max-messages",
            "2",
            "--exec",
            "[ \"$REDRIVE_MESSAGE_TYPE\" = retry ] && exit 75; exit 65");

    assertThat(r.exit()).as(r.toString()).isZero();
    Message retried = server.redrive().getMessage(retry);
    assertThat(retried.lastError().reason()).isEqualTo(FailureReason.DEPENDENCY_FAILURE);
    assertThat(retried.state()).isEqualTo(MessageState.READY);
    assertThat(r.err())
        .contains("failed " + invalid + " (exit 65): dead (VALIDATION_FAILURE), moved to jobs.dlq")
        .contains("2 messages from jobs: 0 completed, 2 failed");
  }

  @Test
  void work_onceAndMaxMessages_stopEarly_emptyQueueStops() {
    for (int i = 0; i < 4; i++) {
      server.enqueue("jobs", "t", "{}");
    }

    Cli.Result once = server.cli("work", "jobs", "--once", "--exec", "true");
    Cli.Result two = server.cli("work", "jobs", "--max-messages", "2", "--exec", "true");
    Cli.Result rest = server.cli("work", "jobs", "--exec", "true", "--json");

    assertThat(once.err()).endsWith("worked on 1 message from jobs: 1 completed, 0 failed\n");
    assertThat(two.err()).endsWith("worked on 2 messages from jobs: 2 completed, 0 failed\n");
    assertThat(rest.out()).contains("\"processed\" : 1");
    assertThat(server.redrive().stats("jobs").total()).isZero();
  }

  @Test
  void work_aLeaseThatOnlyPoisons_doesNotStopTheWork() {
    server.cli("queue", "create", "once", "--max-attempts", "1");
    String spent = server.enqueue("once", "t", "{}");
    var lease = server.redrive().lease(LeaseRequest.of("once", "w0", 1)).leased().get(0);
    server.redrive().abandon(new AbandonRequest(lease.token(), Duration.ZERO, false, "gave up"));
    String good = server.enqueue("once", "t", "{}");

    Cli.Result r = server.cli("work", "once", "--exec", "true");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err())
        .contains("dead-lettered 1 as POISON")
        .contains("completed " + good)
        .endsWith("worked on 1 message from once: 1 completed, 0 failed\n");
    assertThat(server.redrive().getMessage(spent).deadReason()).isEqualTo(FailureReason.POISON);
  }

  @Test
  void work_renewsTheLeaseWhileTheCommandRuns() throws Exception {
    String id = server.enqueue("jobs", "t", "{}");
    AtomicReference<Cli.Result> result = new AtomicReference<>();
    // the command outlives its 1 s lease several times over: only renewals keep it leased
    Thread worker =
        new Thread(
            () ->
                result.set(
                    server.cli(
                        "work", "jobs", "--once", "--lease-timeout", "1s", "--exec", "sleep 3")));
    worker.start();
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> server.redrive().getMessage(id).state() == MessageState.LEASED);

    await()
        .during(Duration.ofMillis(2500))
        .atMost(Duration.ofSeconds(20))
        .until(
            () -> {
              Message m =
                  server.redrive().listMessages(MessageQuery.all("jobs")).messages().stream()
                      .findFirst()
                      .orElse(null);
              return m == null || m.visibleAt().isAfter(Instant.now());
            });
    worker.join();

    assertThat(result.get().exit()).as(result.get().toString()).isZero();
    assertThat(result.get().err()).contains("completed " + id);
    assertThat(server.redrive().stats("jobs").total()).isZero();
  }

  @Test
  void work_stoppedWhileTheCommandRuns_stopsItAndGivesTheLeaseBack() throws Exception {
    String id = server.enqueue("jobs", "t", "{}");
    Path marker = dir.resolve("still-running");
    // a child JVM, so SIGTERM runs its shutdown hooks as a terminal's Ctrl-C would
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                io.redrive.cli.RedriveCommand.class.getName(),
                "work",
                "jobs",
                "--server",
                server.url(),
                "--exec",
                "sleep 30; touch '" + marker + "'")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("child.log").toFile())
            .start();
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> server.redrive().getMessage(id).state() == MessageState.LEASED);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> child.descendants().anyMatch(p -> true)); // CMD is running
      List<ProcessHandle> cmd = child.descendants().toList();

      child.destroy(); // SIGTERM

      assertThat(child.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      String log = Files.readString(dir.resolve("child.log"));
      assertThat(log).contains("stopped: gave back the lease of " + id);
      Message m = server.redrive().getMessage(id);
      assertThat(m.state()).isEqualTo(MessageState.READY);
      assertThat(m.attempts()).isZero();
      assertThat(m.lastError()).isNull();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> cmd.stream().noneMatch(ProcessHandle::isAlive));
      assertThat(marker).doesNotExist();
    } finally {
      child.descendants().forEach(ProcessHandle::destroyForcibly);
      child.destroyForcibly();
    }
  }

  @Test
  void work_commandCannotStart_givesTheAttemptBackAndExitsOne() {
    WorkCommand.shell = List.of(dir.resolve("no-such-shell").toString());
    String id = server.enqueue("jobs", "t", "{}");

    Cli.Result r = server.cli("work", "jobs", "--exec", "true");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("cannot run --exec \"true\"").contains("(EXEC_FAILED)");
    Message m = server.redrive().getMessage(id);
    assertThat(m.state()).isEqualTo(MessageState.READY);
    assertThat(m.attempts()).isZero();
  }

  @Test
  void work_badMaxMessages_isUsage() {
    Cli.Result r = server.cli("work", "jobs", "--exec", "true", "--max-messages", "0");

    assertThat(r.exit()).isEqualTo(2);
  }
}
