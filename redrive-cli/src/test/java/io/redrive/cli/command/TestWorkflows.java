package io.redrive.cli.command;

import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The builds the workflow CLI tests run and check: {@link #v1()} is deployed; {@link #v2()} changes
 * {@code Gate} for large orders only, so a replay check must list exactly those instances. Neither
 * registers {@code Ship}, which {@code ShipElsewhere} calls: another worker serves it; nor {@code
 * Nowhere}, which {@code Unhandled} calls and no worker has a handler for.
 */
public final class TestWorkflows {
  /** {@code Fragile} throws a LinkageError for these inputs (a bad deploy) until removed. */
  public static final Set<String> BROKEN = ConcurrentHashMap.newKeySet();

  private TestWorkflows() {}

  public static WorkflowRegistry v1() {
    return build("Audit");
  }

  public static WorkflowRegistry v2() {
    return build("AuditTwice");
  }

  /** Not a registry: for the loader's error test. */
  public static String notARegistry() {
    return "no";
  }

  private static WorkflowRegistry build(String auditActivity) {
    return WorkflowRegistry.builder()
        .orchestration(
            "Greet",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> "hello " + ctx.callActivity("Upper", in, String.class).await())
        .orchestration(
            "Gate",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              if (in.startsWith("big")) {
                ctx.callActivity(auditActivity, in, String.class).await();
              }
              return ctx.waitForEvent("open", String.class).await();
            })
        .orchestration(
            "Fragile",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              if (BROKEN.contains(in)) {
                throw new NoClassDefFoundError("com/example/Gone (mid-deploy)");
              }
              return "fixed";
            })
        .orchestration(
            "Throws",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              throw new IllegalStateException("the code decided: " + in);
            })
        .orchestration(
            "ShipElsewhere",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> ctx.callActivity("Ship", in, String.class).await())
        .orchestration(
            "Unhandled",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> ctx.callActivity("Nowhere", in, String.class).await())
        .activity("Upper", String.class, String.class, (ctx, in) -> in.toUpperCase())
        .activity("Audit", String.class, String.class, (ctx, in) -> "audited")
        .activity("AuditTwice", String.class, String.class, (ctx, in) -> "audited twice")
        .build();
  }

  /** The runtime the test server runs: {@link #v1()}, fast backoffs, 2 tries. */
  public static WorkflowRuntime runtime(io.redrive.Redrive redrive) {
    return WorkflowRuntime.builder(redrive, v1())
        .nodeId("cli-test-node")
        .buildId("v1-build")
        .maxAttempts(2)
        .unregisteredBackoff(
            new UnregisteredHandlerBackoff(Duration.ofMillis(10), 6, Duration.ofMillis(50)))
        .pollInterval(Duration.ofMillis(50))
        .build();
  }
}
