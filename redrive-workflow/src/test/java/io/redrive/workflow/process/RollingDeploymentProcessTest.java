package io.redrive.workflow.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.StoreKind;
import io.redrive.workflow.WorkflowClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rolling deployments D-22 and D-23 with nodes as child JVMs on PostgreSQL (the database many
 * JVMs share): two nodes run old code, one new; the old ones are restarted on the new code while
 * the instance waits. (SQLite runs the same scenarios with nodes in one JVM: FleetScenariosTest.)
 */
class RollingDeploymentProcessTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final List<ChildNode> nodes = new ArrayList<>();
  private StoreKind.TestDb db;
  private Redrive redrive;
  private Path sideEffects;

  @AfterEach
  void close() throws Exception {
    for (ChildNode n : nodes) {
      n.close();
    }
    if (redrive != null) {
      redrive.close();
    }
    if (db != null) {
      db.drop().run();
    }
  }

  private ChildNode node(String id, CrashRegistry.Mode code, long baseMs, long maxMs)
      throws InterruptedException {
    ChildNode n = ChildNode.start(db.address(), id, "BOTH", code, sideEffects, 50, baseMs, maxMs);
    nodes.add(n);
    n.awaitLine("READY", WAIT);
    return n;
  }

  private WorkflowClient setUp() throws Exception {
    db = StoreKind.POSTGRES.newDatabase();
    redrive = Redrive.builder(db.open()).build();
    sideEffects = Files.createTempFile("rolling", ".txt");
    return WorkflowClient.on(redrive);
  }

  @Test
  void d22_threeJvms_twoLackTheActivity_restartedOnNewCode_completes() throws Exception {
    WorkflowClient client = setUp();
    ChildNode n1 = node("node-1", CrashRegistry.Mode.ROLLING_OLD, 50, 200);
    ChildNode n2 = node("node-2", CrashRegistry.Mode.ROLLING_OLD, 50, 200);
    node("node-3", CrashRegistry.Mode.ROLLING_NEW, 50, 200);
    String id = client.start(StartRequest.of("Rolling", "r1")).instanceId();
    // The instance's first turn has run somewhere: its activity is in flight.
    await()
        .atMost(WAIT)
        .until(
            () ->
                client.history(id, 1).stream()
                    .anyMatch(e -> e.kind().equals("ACTIVITY_SCHEDULED")));

    n1.stopGracefully();
    node("node-1b", CrashRegistry.Mode.ROLLING_NEW, 50, 200);
    n2.stopGracefully();
    node("node-2b", CrashRegistry.Mode.ROLLING_NEW, 50, 200);

    assertThat(client.awaitResult(id, WAIT, String.class)).contains("NewActivity result");
  }

  @Test
  void d23_threeJvms_continueAsNewToV2_onlyNodeThreeHasIt_completesAfterUpgrade() throws Exception {
    WorkflowClient client = setUp();
    ChildNode n1 = node("node-1", CrashRegistry.Mode.ROLLING_OLD, 100, 500);
    ChildNode n2 = node("node-2", CrashRegistry.Mode.ROLLING_OLD, 100, 500);
    node("node-3", CrashRegistry.Mode.ROLLING_NEW, 100, 500);
    String id =
        client.start(StartRequest.of("Versioned", "order").withVersion("1.0.0")).instanceId();
    // Execution 1 has continued as new: the CONTINUE row waits for a node with 2.0.0.
    await()
        .atMost(WAIT)
        .until(
            () ->
                client.history(id, 1).stream().anyMatch(e -> e.kind().equals("CONTINUED_AS_NEW")));

    n1.stopGracefully();
    node("node-1b", CrashRegistry.Mode.ROLLING_NEW, 100, 500);
    n2.stopGracefully();
    node("node-2b", CrashRegistry.Mode.ROLLING_NEW, 100, 500);

    assertThat(client.awaitResult(id, WAIT, String.class)).isEqualTo("order-v1-v2-completed");
    assertThat(client.get(id).orElseThrow().version()).isEqualTo("2.0.0");
  }
}
