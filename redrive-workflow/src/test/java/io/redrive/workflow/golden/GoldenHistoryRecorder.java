package io.redrive.workflow.golden;

import io.redrive.Redrive;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.StoreKind;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowReplayer;
import io.redrive.workflow.WorkflowRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Records the golden histories: runs every {@link GoldenScenarios} instance to its end on a real
 * runtime and store, and writes each instance's whole history (every execution) as {@code
 * <store>/<instance>.json} in the format of {@link WorkflowReplayer#toJson}. Run by hand, once per
 * change of the stored format, never by the build:
 *
 * <pre>
 * java -cp "redrive-workflow/target/test-classes:redrive-workflow/target/classes:$CP" \
 *     io.redrive.workflow.golden.GoldenHistoryRecorder redrive-workflow/src/test/resources/golden-histories
 * </pre>
 */
public final class GoldenHistoryRecorder {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final UnregisteredHandlerBackoff FAST =
      new UnregisteredHandlerBackoff(Duration.ofMillis(10), 6, Duration.ofMillis(50));

  private GoldenHistoryRecorder() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args.length > 0 ? args[0] : "golden-histories");
    for (StoreKind kind : StoreKind.values()) {
      record(kind, out.resolve(kind.name().toLowerCase(Locale.ROOT)));
    }
    System.exit(0);
  }

  private static void record(StoreKind kind, Path dir) throws Exception {
    StoreKind.TestDb db = kind.newDatabase();
    Files.createDirectories(dir);
    try (Redrive redrive = Redrive.builder(db.open()).build()) {
      WorkflowClient client = WorkflowClient.on(redrive);
      List<String> ids = new ArrayList<>();
      WorkflowRuntime old = runtime(redrive, GoldenScenarios.registry(false), "node-old");
      start(client, "golden-poisoned-retried", "Order", "book");
      expect(client.await("golden-poisoned-retried", WAIT), InstanceStatus.FAILED);
      old.stop(WAIT);

      WorkflowRuntime node = runtime(redrive, GoldenScenarios.registry(true), "node-1");
      client.retry("golden-poisoned-retried", "deployed Ship");
      expect(client.await("golden-poisoned-retried", WAIT), InstanceStatus.COMPLETED);

      start(client, "golden-activities", "Activities", "in");
      start(client, "golden-retries", "Retries", "r");
      start(client, "golden-timers-events", "TimersEvents", "t");
      start(client, "golden-children", "Parent", "p");
      // Pinned: the default would be the highest registered version, 2.0.0.
      client.start(
          StartRequest.of("Loop", 0).withVersion("1.0.0").withInstanceId("golden-continue"));
      start(client, "golden-patched", "Patched", "x");
      start(client, "golden-terminated", "Waits", "w");

      client.raiseEvent("golden-continue", "note", "carried across", null);
      waitUntil(() -> hasWait(client, "golden-timers-events"), client);
      client.raiseEvent("golden-timers-events", "approve", "yes", null);
      waitUntil(() -> client.get("golden-continue").orElseThrow().executionId() >= 3, client);
      client.raiseEvent("golden-continue", "ready", "go on", null);
      // The "go" event must find TimersEvents waiting in anyOf (its timeout timer recorded).
      waitUntil(() -> count(client, "golden-timers-events", "TIMER_CREATED") >= 3, client);
      client.raiseEvent("golden-timers-events", "go", "went", null);
      // The child must have taken its first turn, so the termination reaches a running child.
      waitUntil(() -> count(client, "golden-terminated::sub::1", "TURN_STARTED") >= 1, client);
      client.terminate("golden-terminated", "operator stop");

      expect(client.await("golden-activities", WAIT), InstanceStatus.COMPLETED);
      expect(client.await("golden-retries", WAIT), InstanceStatus.FAILED);
      expect(client.await("golden-timers-events", WAIT), InstanceStatus.COMPLETED);
      expect(client.await("golden-children", WAIT), InstanceStatus.COMPLETED);
      expect(client.await("golden-continue", WAIT), InstanceStatus.COMPLETED);
      expect(client.await("golden-patched", WAIT), InstanceStatus.COMPLETED);
      expect(client.await("golden-terminated", WAIT), InstanceStatus.TERMINATED);
      expect(client.await("golden-terminated::sub::1", WAIT), InstanceStatus.TERMINATED);
      node.stop(WAIT);

      ids.addAll(GoldenScenarios.ROOTS);
      ids.addAll(
          List.of(
              "golden-children::sub::1",
              "golden-children-named",
              "golden-children::sub::3",
              "golden-terminated::sub::1"));
      for (String id : ids) {
        String json = WorkflowReplayer.toJson(client.history(id, null));
        Files.writeString(
            dir.resolve(GoldenHistoryTest.fileName(id)), json + "\n", StandardCharsets.UTF_8);
      }
      System.out.println("recorded " + ids.size() + " histories in " + dir);
    } finally {
      db.drop().run();
    }
  }

  private static long count(WorkflowClient client, String id, String kind) {
    return client.get(id).isEmpty()
        ? 0
        : client.history(id, null).stream().filter(r -> r.kind().equals(kind)).count();
  }

  private static boolean hasWait(WorkflowClient client, String id) {
    return client.history(id, null).stream().anyMatch(r -> r.kind().equals("TIMER_FIRED"));
  }

  private static WorkflowRuntime runtime(Redrive redrive, WorkflowRegistry registry, String node) {
    return WorkflowRuntime.builder(redrive, registry)
        .nodeId(node)
        .buildId("golden")
        .maxAttempts(2)
        .unregisteredBackoff(FAST)
        .pollInterval(Duration.ofMillis(20))
        .build()
        .start();
  }

  private static void start(WorkflowClient client, String id, String name, Object input) {
    client.start(StartRequest.of(name, input).withInstanceId(id));
  }

  private static void expect(InstanceInfo info, InstanceStatus status) {
    if (info.status() != status) {
      throw new IllegalStateException(info.id() + " ended " + info.status() + ", not " + status);
    }
  }

  private static void waitUntil(
      java.util.function.BooleanSupplier condition, WorkflowClient client) {
    try {
      Awaitility.await()
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(20))
          .until(condition::getAsBoolean);
    } catch (ConditionTimeoutException e) {
      for (String id : GoldenScenarios.ROOTS) {
        System.out.println(
            client.get(id) + " " + client.history(id, null).stream().map(r -> r.kind()).toList());
      }
      throw e;
    }
  }
}
