package io.redrive.workflow.golden;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.workflow.ActivityFailedException;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.SubOrchestrationFailedException;
import io.redrive.workflow.SubOrchestrationOptions;
import io.redrive.workflow.Task;
import io.redrive.workflow.WorkflowRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The orchestrations whose recorded histories are checked in as golden files (every event kind,
 * retries, children, continue-as-new with a version change and carried events, patches,
 * termination, an operator's retry after poison). Their code must never change: the golden files
 * were written by it, and {@link GoldenHistoryTest} replays them against it.
 */
final class GoldenScenarios {
  /** The instance ids the recorder starts, one per scenario (children get generated ids). */
  static final List<String> ROOTS =
      List.of(
          "golden-activities",
          "golden-retries",
          "golden-timers-events",
          "golden-children",
          "golden-continue",
          "golden-patched",
          "golden-terminated",
          "golden-poisoned-retried");

  private GoldenScenarios() {}

  /**
   * The registry every golden history replays against.
   *
   * @param withLateCode false for the node that poisons {@code golden-poisoned-retried} (it lacks
   *     the {@code Ship} activity), true for the one that finishes it after the operator's retry
   */
  static WorkflowRegistry registry(boolean withLateCode) {
    WorkflowRegistry.Builder b =
        WorkflowRegistry.builder()
            .orchestration(
                "Activities",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  String a = ctx.callActivity("Echo", in + "-a", String.class).await();
                  Task<String> b1 = ctx.callActivity("Echo", "b1", String.class);
                  Task<String> b2 = ctx.callActivity("Echo", "b2", String.class);
                  List<String> both = ctx.allOf(List.of(b1, b2)).await();
                  return a + "|" + String.join(",", both);
                })
            .orchestration(
                "Retries",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  try {
                    ctx.callActivity(
                            "Flaky",
                            in,
                            new TypeReference<String>() {},
                            ActivityOptions.defaults()
                                .withRetry(RetryPolicy.fixed(2, Duration.ofMillis(20))))
                        .await();
                  } catch (ActivityFailedException e) {
                    ctx.setStatus("flaky failed: " + e.failure().reason());
                  }
                  throw new IllegalStateException("gave up on " + in);
                })
            .orchestration(
                "TimersEvents",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  ctx.createTimer(Duration.ofMillis(30)).await();
                  String approved = ctx.waitForEvent("approve", String.class).await();
                  Optional<String> never =
                      ctx.waitForEvent("never", String.class, Duration.ofMillis(30)).await();
                  Task<?> first =
                      ctx.anyOf(
                              List.of(
                                  ctx.createTimer(Duration.ofMinutes(10)),
                                  ctx.waitForEvent("go", String.class)))
                          .await();
                  return approved + "/" + never.orElse("timed out") + "/" + first.await();
                })
            .orchestration(
                "Parent",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  String ok = ctx.callSubOrchestration("Child", in, String.class).await();
                  String named =
                      ctx.callSubOrchestration(
                              "Child",
                              "named",
                              new TypeReference<String>() {},
                              SubOrchestrationOptions.defaults()
                                  .withInstanceId(ctx.instanceId() + "-named"))
                          .await();
                  try {
                    ctx.callSubOrchestration("FailingChild", in, String.class).await();
                    return "unexpected";
                  } catch (SubOrchestrationFailedException e) {
                    return ok + "|" + named + "|caught " + e.failure().reason();
                  }
                })
            .orchestration(
                "Child",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> "child " + ctx.callActivity("Echo", in, String.class).await())
            .orchestration(
                "FailingChild",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  throw new IllegalArgumentException("child refuses " + in);
                })
            .orchestration(
                "Loop",
                "1.0.0",
                Integer.class,
                String.class,
                (ctx, n) -> {
                  ctx.callActivity("Echo", "loop " + n, String.class).await();
                  if (n < 2) {
                    return ctx.continueAsNew("1.0.0", n + 1);
                  }
                  ctx.waitForEvent("ready", String.class).await();
                  // The default version: the highest registered, 2.0.0.
                  return ctx.continueAsNew(n + 1);
                })
            .orchestration(
                "Loop",
                "2.0.0",
                Integer.class,
                String.class,
                (ctx, n) -> "v2 " + n + " " + ctx.waitForEvent("note", String.class).await())
            .orchestration(
                "Patched",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  String r =
                      ctx.patched("fast-path")
                          ? ctx.callActivity("Echo", "fast " + in, String.class).await()
                          : ctx.callActivity("Echo", "slow " + in, String.class).await();
                  ctx.deprecatePatch("old-change");
                  return r + " " + ctx.newUuid() + " " + ctx.random().nextInt(1000);
                })
            .orchestration(
                "Waits",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  Task<String> child = ctx.callSubOrchestration("WaitsChild", in, String.class);
                  return ctx.waitForEvent("never", String.class).await() + child.await();
                })
            .orchestration(
                "WaitsChild",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.waitForEvent("never", String.class).await())
            .orchestration(
                "Order",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  String r = ctx.callActivity("Reserve", in, String.class).await();
                  return ctx.callActivity("Ship", r, String.class).await();
                })
            .activity("Echo", String.class, String.class, (ctx, in) -> "echo " + in)
            .activity(
                "Flaky",
                String.class,
                String.class,
                (ctx, in) -> {
                  throw new IllegalStateException("flaky " + in + " try " + ctx.retryNumber());
                })
            .activity("Reserve", String.class, String.class, (ctx, in) -> in + " reserved");
    if (withLateCode) {
      b.activity("Ship", String.class, String.class, (ctx, in) -> in + " shipped");
    }
    return b.build();
  }
}
