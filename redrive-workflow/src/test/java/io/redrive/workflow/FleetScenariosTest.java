package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.message.MessageQuery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several runtimes on one store (nodes in one JVM): rolling deployments where some nodes lack new
 * code (D-22, D-23), bouncing instances that must not hold up healthy ones (D-27), and a fan-out
 * where no turn of an instance ever runs twice at once.
 */
class FleetScenariosTest extends RuntimeHarness {

  private static WorkflowRegistry.Builder withNewActivity(boolean has) {
    WorkflowRegistry.Builder b =
        WorkflowRegistry.builder()
            .orchestration(
                "Rolling",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.callActivity("NewActivity", in, String.class).await())
            .activity("OldActivity", String.class, String.class, (ctx, in) -> in);
    if (has) {
      b.activity(
          "NewActivity", String.class, String.class, (ctx, in) -> "NewActivity result " + in);
    }
    return b;
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d22_activityMissingOnTwoNodes_leftForTheNodeThatHasIt(StoreKind kind) throws Exception {
    redrive(kind);
    var rollingBackoff =
        new io.redrive.retry.UnregisteredHandlerBackoff(
            Duration.ofMillis(50), 6, Duration.ofMillis(200));
    WorkflowRuntime n1 =
        runtime(
            withNewActivity(false).build(),
            b -> b.maxAttempts(50).unregisteredBackoff(rollingBackoff));
    WorkflowRuntime n2 =
        runtime(
            withNewActivity(false).build(),
            b -> b.maxAttempts(50).unregisteredBackoff(rollingBackoff));
    runtime(
        withNewActivity(true).build(), b -> b.maxAttempts(50).unregisteredBackoff(rollingBackoff));
    String id = client().start(StartRequest.of("Rolling", "r1")).instanceId();

    // The old nodes are restarted on the new code while the instance is in flight.
    n1.stop(WAIT);
    runtime(
        withNewActivity(true).build(), b -> b.maxAttempts(50).unregisteredBackoff(rollingBackoff));
    n2.stop(WAIT);
    runtime(
        withNewActivity(true).build(), b -> b.maxAttempts(50).unregisteredBackoff(rollingBackoff));

    assertThat(client().awaitResult(id, WAIT, String.class)).contains("NewActivity result");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d22_noNodeHasTheActivityYet_itWaitsThenRunsAfterTheUpgrade(StoreKind kind) throws Exception {
    redrive(kind);
    var rollingBackoff =
        new io.redrive.retry.UnregisteredHandlerBackoff(
            Duration.ofMillis(50), 6, Duration.ofMillis(200));
    List<WorkflowRuntime> old = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      old.add(
          runtime(
              withNewActivity(false).build(),
              b -> b.maxAttempts(50).unregisteredBackoff(rollingBackoff)));
    }
    String id = client().start(StartRequest.of("Rolling", "r2")).instanceId();
    await()
        .atMost(WAIT)
        .until(
            () ->
                redrive
                    .listMessages(MessageQuery.all(WorkflowDefaults.ACTIVITY_QUEUE))
                    .messages()
                    .stream()
                    .anyMatch(m -> m.type().equals("NewActivity")));
    // The old nodes lease only the activities they have: the new one waits, untouched.
    await()
        .during(Duration.ofMillis(300))
        .atMost(WAIT)
        .until(
            () ->
                redrive
                    .listMessages(MessageQuery.all(WorkflowDefaults.ACTIVITY_QUEUE))
                    .messages()
                    .stream()
                    .allMatch(m -> m.attempts() == 0));
    assertThat(client().get(id).orElseThrow().status()).isEqualTo(InstanceStatus.RUNNING);

    for (WorkflowRuntime r : old) {
      r.stop(WAIT);
      runtime(
          withNewActivity(true).build(),
          b -> b.maxAttempts(50).unregisteredBackoff(rollingBackoff));
    }

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("NewActivity result r2");
  }

  private static WorkflowRegistry versions(boolean hasV2) {
    WorkflowRegistry.Builder b =
        WorkflowRegistry.builder()
            .orchestration(
                "Versioned",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.continueAsNew("2.0.0", in + "-v1"));
    if (hasV2) {
      b.orchestration(
          "Versioned", "2.0.0", String.class, String.class, (ctx, in) -> in + "-v2-completed");
    }
    return b.build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d23_continueAsNewToAVersionOnlyOneNodeHas_completesAfterTheUpgrade(StoreKind kind)
      throws Exception {
    redrive(kind);
    var backoff =
        new io.redrive.retry.UnregisteredHandlerBackoff(
            Duration.ofMillis(100), 6, Duration.ofMillis(500));
    WorkflowRuntime n1 =
        runtime(versions(false), b -> b.maxAttempts(50).unregisteredBackoff(backoff));
    WorkflowRuntime n2 =
        runtime(versions(false), b -> b.maxAttempts(50).unregisteredBackoff(backoff));
    runtime(versions(true), b -> b.maxAttempts(50).unregisteredBackoff(backoff));
    String id =
        client().start(StartRequest.of("Versioned", "order").withVersion("1.0.0")).instanceId();

    n1.stop(WAIT);
    runtime(versions(true), b -> b.maxAttempts(50).unregisteredBackoff(backoff));
    n2.stop(WAIT);
    runtime(versions(true), b -> b.maxAttempts(50).unregisteredBackoff(backoff));

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("order-v1-v2-completed");
    InstanceInfo info = client().get(id).orElseThrow();
    assertThat(info.executionId()).isEqualTo(2);
    assertThat(info.version()).isEqualTo("2.0.0");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d27_bouncingInstancesAndActivities_doNotHoldUpHealthyOnes(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "Healthy",
                "1.0.0",
                Integer.class,
                Integer.class,
                (ctx, n) -> ctx.callActivity("Inc", n, Integer.class).await())
            .orchestration(
                "CallsMissing",
                "1.0.0",
                Integer.class,
                Integer.class,
                (ctx, n) -> ctx.callActivity("MissingActivity", n, Integer.class).await())
            .activity("Inc", Integer.class, Integer.class, (ctx, n) -> n + 1)
            .build();
    runtime(registry, b -> b.maxAttempts(100).orchestrationConcurrency(4));
    List<String> stuck = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      stuck.add(client().start(StartRequest.of("Unregistered", i)).instanceId());
      stuck.add(client().start(StartRequest.of("CallsMissing", i)).instanceId());
    }
    List<String> healthy = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      healthy.add(client().start(StartRequest.of("Healthy", i)).instanceId());
    }

    for (int i = 0; i < healthy.size(); i++) {
      assertThat(client().awaitResult(healthy.get(i), WAIT, Integer.class)).isEqualTo(i + 1);
    }
    for (String id : stuck) {
      assertThat(client().get(id).orElseThrow().status()).isNotEqualTo(InstanceStatus.COMPLETED);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void fanOut_eightRuntimes_noTurnOfAnInstanceEverRunsTwiceAtOnce(StoreKind kind) throws Exception {
    redrive(kind);
    Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    AtomicInteger overlaps = new AtomicInteger();
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "FanOut",
                "1.0.0",
                Integer.class,
                Integer.class,
                (ctx, n) -> {
                  AtomicInteger mine =
                      inFlight.computeIfAbsent(ctx.instanceId(), k -> new AtomicInteger());
                  if (mine.incrementAndGet() > 1) {
                    overlaps.incrementAndGet();
                  }
                  try {
                    List<Task<Integer>> parts = new ArrayList<>();
                    for (int i = 0; i < 3; i++) {
                      parts.add(ctx.callActivity("Square", n + i, Integer.class));
                    }
                    return ctx.allOf(parts).await().stream().mapToInt(Integer::intValue).sum();
                  } finally {
                    mine.decrementAndGet();
                  }
                })
            .activity("Square", Integer.class, Integer.class, (ctx, n) -> n * n)
            .build();
    for (int i = 0; i < 8; i++) {
      runtime(registry, b -> b.orchestrationConcurrency(4).activityConcurrency(4));
    }
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ids.add(client().start(StartRequest.of("FanOut", i)).instanceId());
    }

    for (int i = 0; i < ids.size(); i++) {
      int expected = i * i + (i + 1) * (i + 1) + (i + 2) * (i + 2);
      assertThat(client().awaitResult(ids.get(i), Duration.ofSeconds(120), Integer.class))
          .isEqualTo(expected);
    }
    assertThat(overlaps).hasValue(0);
    for (String id : ids) {
      List<WorkflowEvent> history = client().history(id, 1);
      for (int e = 0; e < history.size(); e++) {
        assertThat(history.get(e).eventId()).isEqualTo(e + 1);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void pinnedVersion_keepsReplayingAfterANewerOneIsRegistered(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRegistry.Builder v1 =
        WorkflowRegistry.builder()
            .orchestration(
                "Pinned",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> "v1 got " + ctx.waitForEvent("go", String.class).await());
    WorkflowRuntime old = runtime(v1.build());
    String id = client().start(StartRequest.of("Pinned", "x")).instanceId();
    await()
        .atMost(WAIT)
        .until(() -> client().get(id).orElseThrow().status() == InstanceStatus.RUNNING);
    assertThat(client().get(id).orElseThrow().version()).isEqualTo("1.0.0");
    old.stop(WAIT);

    runtime(
        v1.orchestration(
                "Pinned",
                "2.0.0",
                String.class,
                String.class,
                (ctx, in) -> "v2 got " + ctx.waitForEvent("go", String.class).await())
            .build());
    client().raiseEvent(id, "go", "it", null);
    String fresh = client().start(StartRequest.of("Pinned", "y")).instanceId();
    client().raiseEvent(fresh, "go", "too", null);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("v1 got it");
    assertThat(client().awaitResult(fresh, WAIT, String.class))
        .as("a new instance takes the highest registered version")
        .isEqualTo("v2 got too");
  }
}
