package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.failure.FailureReason;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.worker.HandlerResult;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The rows of the failure table (docs/workflows.md) not walked elsewhere, and the client's start
 * inside a caller's transaction, on both stores.
 */
class FailureTableTest extends RuntimeHarness {
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch started = new CountDownLatch(1);

  private WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Catches",
            "1.0.0",
            String.class,
            String.class,
            (ctx, activity) -> {
              try {
                return ctx.callActivity(activity, "not a number", String.class).await();
              } catch (ActivityFailedException e) {
                return "caught " + e.failure().reason();
              }
            })
        .orchestration(
            "WaitsForChild",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              try {
                return ctx.callSubOrchestration("Sleeps", in, String.class).await();
              } catch (SubOrchestrationFailedException e) {
                return "caught " + e.failure().reason() + ": " + e.failure().message();
              }
            })
        .orchestration(
            "Sleeps",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> ctx.waitForEvent("never", String.class).await())
        .orchestration(
            "Linkage",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              throw new NoClassDefFoundError("com/example/Gone (mid-deploy)");
            })
        .orchestration(
            "Races",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              Task<String> slow = ctx.callActivity("Held", in, String.class);
              Task<Void> timer = ctx.createTimer(Duration.ofMillis(50));
              return ctx.anyOf(List.of(slow, timer)).await() == timer ? "timer won" : "activity";
            })
        .orchestration(
            "Stuck",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              if (!ctx.isReplaying() && release.getCount() > 0) {
                started.countDown();
                release.await();
              }
              return "unstuck";
            })
        .orchestration(
            "Hangs",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              Thread.sleep(60_000); // interrupted at the turn's timeout
              return "woke";
            })
        .activity("Numbers", Integer.class, String.class, (ctx, n) -> "got " + n)
        .activity(
            "GivesUp",
            String.class,
            String.class,
            (ctx, in) -> {
              throw new IllegalStateException("unreachable");
            })
        .activity(
            ActivityRegistration.of(
                "Held",
                String.class,
                String.class,
                (ctx, in) -> {
                  release.await();
                  return "late";
                }))
        .build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activityInputDoesNotDecode_catchableSerializationError(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry());

    String id = client().start(StartRequest.of("Catches", "Numbers")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class))
        .isEqualTo("caught SERIALIZATION_ERROR");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activityDeadNow_catchableWithItsReason(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "Catches",
                "1.0.0",
                String.class,
                String.class,
                (ctx, activity) -> {
                  try {
                    return ctx.callActivity(activity, "x", String.class).await();
                  } catch (ActivityFailedException e) {
                    return "caught " + e.failure().reason() + ": " + e.failure().message();
                  }
                })
            .build();
    runtime(registry);
    // An activity run by a plain worker handler that gives up at once (as HTTP consumers can).
    io.redrive.worker.Worker worker =
        io.redrive.worker.Worker.builder(redrive, WorkflowDefaults.ACTIVITY_QUEUE)
            .handler(
                "Refuses",
                ctx -> HandlerResult.deadNow(FailureReason.VALIDATION_FAILURE, "address missing"))
            .pollInterval(Duration.ofMillis(5), Duration.ofMillis(50))
            .build()
            .start();
    try {
      String id = client().start(StartRequest.of("Catches", "Refuses")).instanceId();

      assertThat(client().awaitResult(id, WAIT, String.class))
          .isEqualTo("caught VALIDATION_FAILURE: address missing");
    } finally {
      worker.stop(WAIT);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void childTerminated_parentCatchesTerminated(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry());
    String id = client().start(StartRequest.of("WaitsForChild", "x")).instanceId();
    String child = id + "::sub::1";
    await()
        .atMost(WAIT)
        .until(
            () -> client().get(child).map(c -> c.status() == InstanceStatus.RUNNING).orElse(false));

    client().terminate(child, "operator said so");

    assertThat(client().awaitResult(id, WAIT, String.class))
        .isEqualTo("caught TERMINATED: operator said so");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void orchestrationThrowsAnError_nodeErrorBounces_thenPoisons(StoreKind kind) {
    redrive(kind);
    runtime(registry(), b -> b.maxAttempts(2));

    String id = client().start(StartRequest.of("Linkage", "x")).instanceId();

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().reason()).isEqualTo("POISON");
    assertThat(info.failure().lastAttempt().reason()).isEqualTo("NODE_ERROR");
    assertThat(workflowStore().readTimeline(id))
        .extracting(t -> t.outcome())
        .containsExactly("NODE_ERROR", "NODE_ERROR");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void resultAfterTheInstanceEnded_droppedAsStale(StoreKind kind) throws Exception {
    redrive(kind);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    runtime(registry(), b -> b.meterRegistry(meters));
    String id = client().start(StartRequest.of("Races", "x")).instanceId();
    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("timer won");

    release.countDown();

    await().atMost(WAIT).until(() -> meters.counter("redrive.workflow.stale.results").count() >= 1);
    assertThat(workflowStore().readInbox(id)).isEmpty();
    assertThat(client().get(id).orElseThrow().status()).isEqualTo(InstanceStatus.COMPLETED);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void startInTheCallersTransaction_onlyACommitStartsIt(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry());
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      client().start(c, StartRequest.of("Catches", "Numbers").withInstanceId("rolled-back"));
      c.rollback();
      client().start(c, StartRequest.of("Catches", "Numbers").withInstanceId("committed"));
      c.commit();
    }

    assertThat(client().get("rolled-back")).isEmpty();
    assertThat(client().awaitResult("committed", WAIT, String.class))
        .isEqualTo("caught SERIALIZATION_ERROR");
    assertThat(client().list(InstanceQuery.all(10)).instances())
        .extracting(r -> r.id())
        .containsExactly("committed");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void gracefulStopWithATurnRunning_refundsItsTry(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRuntime node = runtime(registry());
    String id = client().start(StartRequest.of("Stuck", "x")).instanceId();
    assertThat(started.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

    node.stop(Duration.ofMillis(200));

    WorkflowStore store = workflowStore();
    assertThat(store.findInstance(id).orElseThrow().turnAttempt())
        .as("the try given back")
        .isZero();
    assertThat(store.readTimeline(id))
        .singleElement()
        .satisfies(t -> assertThat(t.outcome()).isEqualTo("REFUNDED"));
    release.countDown();
    runtime(registry());
    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("unstuck");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void turnPastMaxTurnDuration_abandonedAsTurnTimeout_thenPoisoned(StoreKind kind) {
    redrive(kind);
    runtime(
        registry(),
        b ->
            b.maxAttempts(2)
                .turnLeaseTimeout(Duration.ofMillis(600))
                .maxTurnDuration(Duration.ofMillis(300)));

    String id = client().start(StartRequest.of("Hangs", "x")).instanceId();

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().reason()).isEqualTo("POISON");
    assertThat(info.failure().lastAttempt().reason()).isEqualTo("TURN_TIMEOUT");
    assertThat(workflowStore().readTimeline(id))
        .extracting(t -> t.outcome())
        .containsExactly("TURN_TIMEOUT", "TURN_TIMEOUT");
    assertThat(client().history(id, 1))
        .extracting(h -> h.kind())
        .doesNotContain("ORCHESTRATION_COMPLETED");
  }
}
