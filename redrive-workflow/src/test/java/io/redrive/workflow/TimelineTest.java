package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.workflow.TimelineEntry.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The attempt-level timeline: a turn try that found no code and an activity delivery that threw
 * both show between the history events they delayed, on both stores.
 */
class TimelineTest extends RuntimeHarness {
  private final AtomicInteger runs = new AtomicInteger();

  private WorkflowRegistry registry(boolean withOrchestration) {
    WorkflowRegistry.Builder b =
        WorkflowRegistry.builder()
            .activity(
                "Flaky",
                String.class,
                String.class,
                (ctx, in) -> {
                  if (runs.incrementAndGet() == 1) {
                    throw new IllegalStateException("first delivery fails");
                  }
                  return in + "!";
                });
    if (withOrchestration) {
      b.orchestration(
          "UsesFlaky",
          "1.0.0",
          String.class,
          String.class,
          (ctx, in) ->
              ctx.callActivity(
                      "Flaky",
                      in,
                      new TypeReference<String>() {},
                      ActivityOptions.defaults()
                          .withRetry(RetryPolicy.fixed(2, Duration.ofMillis(10))))
                  .await());
    }
    return b.build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void timeline_uncommittedTryAndFailedDelivery_showBetweenTheEvents(StoreKind kind)
      throws Exception {
    redrive(kind);
    WorkflowRuntime old = runtime(registry(false), b -> b.unregisteredBackoff(FAST));
    String id = client().start(StartRequest.of("UsesFlaky", "hi")).instanceId();
    await()
        .atMost(WAIT)
        .until(() -> client().timeline(id).stream().anyMatch(e -> e.kind() == Kind.TURN_ATTEMPT));
    old.close();
    runtime(registry(true));

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("hi!");
    List<TimelineEntry> timeline = client().timeline(id);

    TimelineEntry unregistered = timeline.get(0);
    assertThat(unregistered.kind()).isEqualTo(Kind.TURN_ATTEMPT);
    assertThat(unregistered.outcome()).isEqualTo("UNREGISTERED");
    assertThat(unregistered.attempt()).isEqualTo(1);
    assertThat(unregistered.node()).isNotNull();
    List<String> lines =
        timeline.stream()
            .filter(e -> !"TURN_STARTED".equals(e.event()))
            .map(e -> e.kind() == Kind.EVENT ? e.event() : e.kind() + " " + e.outcome())
            .toList();
    assertThat(lines)
        .containsSubsequence(
            "TURN_ATTEMPT UNREGISTERED",
            "ORCHESTRATION_STARTED",
            "ACTIVITY_SCHEDULED",
            "ACTIVITY_ATTEMPT FAILED",
            "ACTIVITY_FAILED",
            "ACTIVITY_SCHEDULED",
            "ACTIVITY_ATTEMPT COMPLETED",
            "ACTIVITY_COMPLETED",
            "ORCHESTRATION_COMPLETED");
    TimelineEntry failed =
        timeline.stream()
            .filter(e -> e.kind() == Kind.ACTIVITY_ATTEMPT && "FAILED".equals(e.outcome()))
            .findFirst()
            .orElseThrow();
    assertThat(failed.name()).isEqualTo("Flaky");
    assertThat(failed.message()).contains("first delivery fails");
    assertThat(failed.node()).isNotNull();
    assertThat(client().get(id).orElseThrow().status()).isEqualTo(InstanceStatus.COMPLETED);
    assertThat(client().timeline("no-such-instance")).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void timeline_activityStillRunning_showsItsDeliveryLive(StoreKind kind) throws Exception {
    redrive(kind);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "Slow",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.callActivity("Hold", in, String.class).await())
            .activity(
                "Hold",
                String.class,
                String.class,
                (ctx, in) -> {
                  release.await();
                  return in;
                })
            .build();
    runtime(registry);
    String id = client().start(StartRequest.of("Slow", "x")).instanceId();

    await()
        .atMost(WAIT)
        .until(
            () -> client().timeline(id).stream().anyMatch(e -> "IN_PROGRESS".equals(e.outcome())));
    TimelineEntry running =
        client().timeline(id).stream()
            .filter(e -> "IN_PROGRESS".equals(e.outcome()))
            .findFirst()
            .orElseThrow();
    assertThat(running.kind()).isEqualTo(Kind.ACTIVITY_ATTEMPT);
    assertThat(running.name()).isEqualTo("Hold");
    assertThat(running.attempt()).isEqualTo(1);
    assertThat(running.node()).isNotNull();
    assertThat(running.message()).startsWith("leased until ");
    // the running delivery names its message, which carries the instance's id
    assertThat(running.messageId()).isNotNull();
    assertThat(redrive.getMessage(running.messageId()).headers()).containsEntry("wf-instance", id);

    release.countDown();
    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("x");
    assertThat(client().timeline(id))
        .noneMatch(e -> "IN_PROGRESS".equals(e.outcome()))
        .anyMatch(e -> e.kind() == Kind.ACTIVITY_ATTEMPT && "COMPLETED".equals(e.outcome()))
        .allMatch(e -> e.messageId() == null); // completed: its message is gone
  }
}
