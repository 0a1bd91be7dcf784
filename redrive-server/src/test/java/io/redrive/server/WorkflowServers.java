package io.redrive.server;

import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.store.Store;
import io.redrive.workflow.Task;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One server per store kind with a workflow runtime embedded ({@link RedriveServer#start(
 * io.redrive.server.config.ServerConfig, io.redrive.server.auth.Authorizer, Store,
 * java.util.function.Function)}), running the orchestrations the workflow API tests use. Kept apart
 * from {@link TestServers#shared}: a runtime leases every instance of its store, so no other test's
 * instances may live there.
 */
final class WorkflowServers {
  /**
   * {@code Fragile} throws a LinkageError (a bad deploy) for these inputs; a test removes its input
   * to "fix the deploy".
   */
  static final Set<String> BROKEN = ConcurrentHashMap.newKeySet();

  /** Activities each execution of {@code Loops} calls. */
  static final int LOOP_CALLS = 60;

  private static final Map<StoreKind, RedriveServer> SERVERS = new EnumMap<>(StoreKind.class);

  private WorkflowServers() {}

  static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Greet",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> "hello " + ctx.callActivity("Upper", in, String.class).await())
        .orchestration(
            "WaitsEvent",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> ctx.waitForEvent("go", String.class).await())
        .orchestration(
            "Parent",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> "parent of " + ctx.callSubOrchestration("Greet", in, String.class).await())
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
            "Crumbles",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              // The input names the missing class: a failure group's cause, one per test.
              if (BROKEN.contains(ctx.instanceId())) {
                throw new NoClassDefFoundError(
                    "com/example/" + in + " (half-deployed " + ctx.instanceId() + ")");
              }
              return "mended";
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
            "CallsMissing",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> ctx.callActivity("Missing", in, String.class).await())
        .orchestration(
            "Loops",
            "1.0.0",
            Integer.class,
            String.class,
            (ctx, n) -> {
              // two executions of 60 activities each: more history than one dashboard page holds
              List<Task<String>> calls = new ArrayList<>();
              for (int i = 0; i < LOOP_CALLS; i++) {
                calls.add(ctx.callActivity("Upper", "round " + n + " call " + i, String.class));
              }
              ctx.allOf(calls).await();
              return n < 2 ? ctx.continueAsNew(n + 1) : "looped " + n;
            })
        .activity("Upper", String.class, String.class, (ctx, in) -> in.toUpperCase())
        .build();
  }

  static synchronized RedriveServer of(StoreKind kind) {
    return SERVERS.computeIfAbsent(
        kind,
        k -> {
          Store store = k.newDatabase().open();
          RedriveServer server =
              RedriveServer.start(
                  TestServers.config(),
                  TestServers.ALLOW_ALL,
                  store,
                  redrive ->
                      WorkflowRuntime.builder(redrive, registry())
                          .nodeId("server-node")
                          .maxAttempts(2)
                          .unregisteredBackoff(
                              new UnregisteredHandlerBackoff(
                                  Duration.ofMillis(10), 6, Duration.ofMillis(50)))
                          .pollInterval(Duration.ofMillis(50))
                          .build());
          Runtime.getRuntime()
              .addShutdownHook(
                  new Thread(
                      () -> {
                        server.stop();
                        store.close();
                      }));
          return server;
        });
  }
}
