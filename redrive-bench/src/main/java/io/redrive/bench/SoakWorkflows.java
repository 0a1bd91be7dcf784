package io.redrive.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.Task;
import io.redrive.workflow.WorkflowRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The soak's orchestrations: {@code soak} touches every kind of workflow row — two activities one
 * after another, a fan-out of four, a durable timer, an event with a timeout (raised by the soak
 * for most instances, left to time out for the rest), an activity that fails its first try for a
 * third of the instances and is retried by its policy (and fails for good for one in fifty, which
 * fails the instance), and a child orchestration with an activity and a timer of its own.
 */
final class SoakWorkflows {
  static final String ROOT = "soak";
  static final String EVENT = "go";

  private static final String CHILD = "soak-child";
  private static final Duration TIMER = Duration.ofSeconds(2);
  private static final Duration EVENT_TIMEOUT = Duration.ofSeconds(20);
  private static final ActivityOptions RETRIED =
      ActivityOptions.queued().withRetry(RetryPolicy.fixed(3, Duration.ofSeconds(1)));

  private SoakWorkflows() {}

  /** True when the soak raises the event for instance number {@code n} (9 in 10). */
  static boolean raisesEvent(int n) {
    return n % 10 != 0;
  }

  /** True when instance number {@code n} fails for good (its flaky activity never succeeds). */
  static boolean failsForGood(int n) {
    return n % 50 == 0;
  }

  static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            ROOT,
            "1.0.0",
            Integer.class,
            Integer.class,
            (ctx, n) -> {
              int a = ctx.callActivity("step", n, Integer.class).await();
              int b = ctx.callActivity("step", a, Integer.class).await();
              List<Task<Integer>> parts = new ArrayList<>();
              for (int i = 0; i < 4; i++) {
                parts.add(ctx.callActivity("step", i, Integer.class));
              }
              int sum = ctx.allOf(parts).await().stream().mapToInt(Integer::intValue).sum();
              ctx.createTimer(TIMER).await();
              Optional<Boolean> go = ctx.waitForEvent(EVENT, Boolean.class, EVENT_TIMEOUT).await();
              int flaky =
                  ctx.callActivity("flaky", n, new TypeReference<Integer>() {}, RETRIED).await();
              int child = ctx.callSubOrchestration(CHILD, n, Integer.class).await();
              return b + sum + flaky + child + (go.isPresent() ? 1 : 0);
            })
        .orchestration(
            CHILD,
            "1.0.0",
            Integer.class,
            Integer.class,
            (ctx, n) -> {
              int a = ctx.callActivity("step", n, Integer.class).await();
              ctx.createTimer(TIMER).await();
              return a;
            })
        .activity(ActivityRegistration.of("step", Integer.class, Integer.class, (ctx, n) -> n + 1))
        .activity(
            ActivityRegistration.of(
                "flaky",
                Integer.class,
                Integer.class,
                (ctx, n) -> {
                  if (failsForGood(n) || (n % 3 == 0 && ctx.retryNumber() == 0)) {
                    throw new IllegalStateException("flaky: instance " + n + " fails this try");
                  }
                  return n;
                }))
        .build();
  }
}
