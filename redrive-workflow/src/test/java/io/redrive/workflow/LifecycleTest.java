package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.redrive.PayloadTooLargeException;
import io.redrive.error.ConflictException;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * Sub-orchestrations, continue-as-new, limits, retry policies and determinism across replays and
 * nodes, on both stores.
 */
class LifecycleTest extends RuntimeHarness {
  private final AtomicInteger flakyRuns = new AtomicInteger();
  private final Map<String, Set<String>> firstValues = new ConcurrentHashMap<>();
  private final AtomicBoolean suggested = new AtomicBoolean();

  private WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Parent",
            "1.0.0",
            String.class,
            String.class,
            (ctx, childName) -> {
              try {
                return ctx.callSubOrchestration(childName, "in", String.class).await();
              } catch (SubOrchestrationFailedException e) {
                return "caught " + e.failure().reason();
              }
            })
        .orchestration(
            "ExplicitChild",
            "1.0.0",
            String.class,
            String.class,
            (ctx, takenId) -> {
              try {
                return ctx.callSubOrchestration(
                        "Echo",
                        "in",
                        new com.fasterxml.jackson.core.type.TypeReference<String>() {},
                        SubOrchestrationOptions.defaults().withInstanceId(takenId))
                    .await();
              } catch (SubOrchestrationFailedException e) {
                return "caught " + e.failure().reason();
              }
            })
        .orchestration("Echo", "1.0.0", String.class, String.class, (ctx, in) -> "echo " + in)
        .orchestration(
            "Fragile",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              if (!ctx.instanceId().endsWith("::retry::2")) {
                throw new IllegalStateException("not yet: " + ctx.instanceId());
              }
              return "made it as " + ctx.instanceId();
            })
        .orchestration(
            "RetriesChild",
            "1.0.0",
            Integer.class,
            String.class,
            (ctx, tries) -> {
              try {
                return ctx.callSubOrchestration(
                        "Fragile",
                        "in",
                        new com.fasterxml.jackson.core.type.TypeReference<String>() {},
                        SubOrchestrationOptions.defaults()
                            .withRetry(RetryPolicy.fixed(tries, Duration.ofMillis(20))))
                    .await();
              } catch (SubOrchestrationFailedException e) {
                return "gave up: " + e.failure().reason();
              }
            })
        .orchestration(
            "Thrower",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              throw new IllegalStateException("child broke");
            })
        .orchestration(
            "WaitsForever",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> ctx.waitForEvent("never", String.class).await())
        .orchestration(
            "Loop",
            "1.0.0",
            Integer.class,
            Integer.class,
            (ctx, n) -> n >= 500 ? ctx.executionId() : ctx.continueAsNew(n + 1))
        .orchestration(
            "TimerLoop",
            "1.0.0",
            Integer.class,
            Integer.class,
            (ctx, n) -> {
              ctx.createTimer(Duration.ZERO).await();
              return n >= 5 ? n : ctx.continueAsNew(n + 1);
            })
        .orchestration(
            "Chatty",
            "1.0.0",
            Integer.class,
            Integer.class,
            (ctx, n) -> {
              int done = 0;
              try {
                for (int i = 0; i < n; i++) {
                  if (ctx.isContinueAsNewSuggested()) {
                    suggested.set(true);
                  }
                  ctx.callActivity("Echo", "x", String.class).await();
                  done++;
                }
              } catch (Exception e) {
                return -1;
              }
              return done;
            })
        .orchestration(
            "BigInput",
            "1.0.0",
            Integer.class,
            String.class,
            (ctx, size) -> {
              try {
                return ctx.callActivity("Echo", "x".repeat(size), String.class).await();
              } catch (PayloadTooLargeException e) {
                return "too large";
              }
            })
        .orchestration(
            "Retrying",
            "1.0.0",
            String.class,
            String.class,
            (ctx, activity) -> {
              try {
                return ctx.callActivity(
                        activity,
                        "x",
                        new com.fasterxml.jackson.core.type.TypeReference<String>() {},
                        ActivityOptions.defaults()
                            .withRetry(
                                RetryPolicy.exponential(
                                    3, Duration.ofMillis(20), 2.0, Duration.ofMillis(100))))
                    .await();
              } catch (ActivityFailedException e) {
                return "gave up: " + e.failure().reason();
              }
            })
        .orchestration(
            "Deterministic",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              String values =
                  ctx.newUuid()
                      + "/"
                      + ctx.random().nextLong()
                      + "/"
                      + ctx.now()
                      + "/"
                      + ctx.isReplaying();
              firstValues
                  .computeIfAbsent(ctx.instanceId(), k -> ConcurrentHashMap.newKeySet())
                  .add(values.substring(0, values.lastIndexOf('/')));
              for (int i = 0; i < 3; i++) {
                ctx.callActivity("Echo", "x" + i, String.class).await();
              }
              return "done";
            })
        .orchestration(
            "Swallower",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              try {
                return ctx.callActivity("Echo", in, String.class).await();
              } catch (Throwable t) {
                return "swallowed";
              }
            })
        .orchestration(
            "Impatient",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              try {
                return ctx.callActivity(
                        "Slow",
                        in,
                        new com.fasterxml.jackson.core.type.TypeReference<String>() {},
                        ActivityOptions.defaults().withTimeout(Duration.ofMillis(200)))
                    .await();
              } catch (ActivityFailedException e) {
                return "gave up: " + e.failure().reason();
              }
            })
        .activity(
            "Slow",
            String.class,
            String.class,
            (ctx, in) -> {
              Thread.sleep(30_000);
              return "too late";
            })
        .activity("Echo", String.class, String.class, (ctx, in) -> "echo " + in)
        .activity(
            "Flaky",
            String.class,
            String.class,
            (ctx, in) -> {
              flakyRuns.incrementAndGet();
              throw new IllegalStateException("flaky " + ctx.retryNumber());
            })
        .build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void child_applicationFailure_caughtByParent(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry());

    String id = client().start(StartRequest.of("Parent", "Thrower")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class))
        .isEqualTo("caught ORCHESTRATION_EXCEPTION");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void childRetryPolicy_failingChildRetriedAsNewInstances_thirdSucceeds(StoreKind kind)
      throws Exception {
    redrive(kind);
    runtime(registry());

    String id = client().start(StartRequest.of("RetriesChild", 3)).instanceId();
    String short2 = client().start(StartRequest.of("RetriesChild", 2)).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class))
        .isEqualTo("made it as " + id + "::sub::1::retry::2");
    assertThat(client().awaitResult(short2, WAIT, String.class))
        .isEqualTo("gave up: ORCHESTRATION_EXCEPTION");
    List<WorkflowEvent> history = client().history(id, 1);
    assertThat(history.stream().filter(e -> e.kind().equals("CHILD_SCHEDULED"))).hasSize(3);
    assertThat(history.stream().filter(e -> e.kind().equals("CHILD_FAILED"))).hasSize(2);
    assertThat(client().get(id + "::sub::1").orElseThrow().status())
        .isEqualTo(InstanceStatus.FAILED);
    assertThat(client().get(id + "::sub::1::retry::1").orElseThrow().parentId()).isEqualTo(id);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void child_explicitIdTaken_catchableInstanceExists(StoreKind kind) throws Exception {
    redrive(kind);
    client().start(StartRequest.of("Echo", "first").withInstanceId("taken-child"));
    runtime(registry());

    String id = client().start(StartRequest.of("ExplicitChild", "taken-child")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("caught INSTANCE_EXISTS");
    assertThat(client().get("taken-child").orElseThrow().parentId()).isNull();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void terminate_cascadesToChildren_deleteRemovesTheTree(StoreKind kind) {
    redrive(kind);
    runtime(registry());
    String id = client().start(StartRequest.of("Parent", "WaitsForever")).instanceId();
    String child = id + "::sub::1";
    await()
        .atMost(WAIT)
        .until(
            () -> client().get(child).map(c -> c.status() == InstanceStatus.RUNNING).orElse(false));

    client().terminate(id, "shutting down");

    assertThat(client().await(id, WAIT).status()).isEqualTo(InstanceStatus.TERMINATED);
    assertThat(client().await(child, WAIT).status()).isEqualTo(InstanceStatus.TERMINATED);
    assertThatThrownBy(() -> client().delete(child, false))
        .isInstanceOf(ConflictException.class)
        .extracting(e -> ((ConflictException) e).code())
        .isEqualTo("NOT_ROOT");
    assertThat(client().delete(id, false).instances()).isEqualTo(2);
    assertThat(client().get(child)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void continueAsNew_fiveHundredIterations_historyStaysBounded(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry(), b -> b.orchestrationConcurrency(1));

    String id = client().start(StartRequest.of("Loop", 1)).instanceId();

    assertThat(client().awaitResult(id, Duration.ofSeconds(120), Integer.class)).isEqualTo(500);
    WorkflowStore store = workflowStore();
    assertThat(store.listExecutions(id)).hasSize(500);
    assertThat(client().history(id, 250)).hasSizeLessThanOrEqualTo(4);
    assertThat(client().get(id).orElseThrow().historyEvents()).isLessThanOrEqualTo(4);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void continueAsNew_commandNumbersContinueAcrossExecutions(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry());

    String id = client().start(StartRequest.of("TimerLoop", 1)).instanceId();

    assertThat(client().awaitResult(id, WAIT, Integer.class)).isEqualTo(5);
    List<ExecutionRow> executions = workflowStore().listExecutions(id);
    assertThat(executions).extracting(ExecutionRow::firstSeq).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(executions)
        .extracting(ExecutionRow::status)
        .containsExactly(
            ExecutionRow.Status.CONTINUED,
            ExecutionRow.Status.CONTINUED,
            ExecutionRow.Status.CONTINUED,
            ExecutionRow.Status.CONTINUED,
            ExecutionRow.Status.COMPLETED);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void historyLimit_failsTheInstanceUncatchably_afterSuggestingContinueAsNew(StoreKind kind) {
    redrive(kind);
    runtime(registry(), b -> b.maxHistoryEvents(100));

    String id = client().start(StartRequest.of("Chatty", 1000)).instanceId();

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().reason()).isEqualTo("HISTORY_LIMIT");
    assertThat(info.failure().category()).isEqualTo("configuration");
    assertThat(suggested).isTrue();
    // Past the limit only the failing turn's own events: its start, its result, the failure.
    List<WorkflowEvent> history = client().history(id, 1);
    assertThat(history).hasSizeLessThanOrEqualTo(103);
    assertThat(history.get(history.size() - 1).kind()).isEqualTo("ORCHESTRATION_FAILED");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void oversizedActivityInput_catchableAtTheCallSite(StoreKind kind) throws Exception {
    db = kind.newDatabase();
    redrive = io.redrive.Redrive.builder(db.open()).maxPayloadBytes(1024).build();
    runtime(registry());

    String id = client().start(StartRequest.of("BigInput", 2000)).instanceId();
    String ok = client().start(StartRequest.of("BigInput", 10)).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("too large");
    assertThat(client().awaitResult(ok, WAIT, String.class)).isEqualTo("echo xxxxxxxxxx");
    redrive.close();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void retryPolicy_threeThrows_threeMessagesRetryTimersThenCatchableFailure(StoreKind kind)
      throws Exception {
    redrive(kind);
    runtime(registry());

    String id = client().start(StartRequest.of("Retrying", "Flaky")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class))
        .isEqualTo("gave up: HANDLER_EXCEPTION");
    assertThat(flakyRuns).hasValue(3);
    List<WorkflowEvent> history = client().history(id, 1);
    assertThat(history.stream().filter(e -> e.kind().equals("ACTIVITY_SCHEDULED"))).hasSize(3);
    assertThat(history.stream().filter(e -> e.kind().equals("TIMER_CREATED")))
        .hasSize(2)
        .allSatisfy(e -> assertThat(e.name()).isEqualTo("RETRY"));
    assertThat(history.stream().filter(e -> e.kind().equals("ACTIVITY_FAILED"))).hasSize(3);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activityCallTimeout_interruptsIt_catchableTimeout(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry());

    String id = client().start(StartRequest.of("Impatient", "x")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("gave up: TIMEOUT_EXCEEDED");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void retryPolicy_poisonedActivity_notRetried(StoreKind kind) {
    redrive(kind);
    runtime(registry(), b -> b.maxAttempts(2).unregisteredBackoff(FAST));
    catchAllActivityWorker("NotThere"); // the runtime leaves an activity it lacks to others

    String id = client().start(StartRequest.of("Retrying", "NotThere")).instanceId();

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().reason()).isEqualTo("POISON");
    assertThat(client().history(id, 1).stream().filter(e -> e.kind().equals("ACTIVITY_SCHEDULED")))
        .hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void deterministicValues_sameInEveryReplayOnEveryNode(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry());
    runtime(registry());
    runtime(registry());

    String id = client().start(StartRequest.of("Deterministic", "x")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("done");
    assertThat(firstValues.get(id)).as("uuid/random/now of every replay").hasSize(1);
    assertThat(client().history(id, 1).stream().filter(e -> e.kind().equals("TURN_STARTED")))
        .hasSize(4);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void codeCatchingThrowable_stillSuspends_warnsOnce(StoreKind kind) throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger("io.redrive.workflow.runtime");
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      redrive(kind);
      runtime(registry());

      String id = client().start(StartRequest.of("Swallower", "x")).instanceId();

      assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("echo x");
      assertThat(appender.list)
          .filteredOn(e -> e.getFormattedMessage().contains("caught the runtime's suspension"))
          .hasSize(1)
          .allSatisfy(e -> assertThat(e.getFormattedMessage()).contains(id));
    } finally {
      logger.detachAppender(appender);
    }
  }
}
