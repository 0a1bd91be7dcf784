package io.redrive.workflow.process;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.Redrive;
import io.redrive.store.Store;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.PoisonTarget;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.StoreKind;
import io.redrive.workflow.TimelineEntry;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowEvent;
import io.redrive.workflow.WorkflowRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * kill -9 while a local activity runs (docs/workflows.md, "Local and queued activities"): child-JVM
 * nodes whose local activity halts their process; the crashes are the activity's attempts, and a
 * node in the test JVM finishes it, or poisons the activity when they tripped the crash-loop
 * breaker. Both stores (the SQLite file shared by the children).
 */
class LocalActivityCrashTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private StoreKind.TestDb db;
  private Redrive redrive;
  private WorkflowRuntime runtime;
  private final List<ChildNode> children = new ArrayList<>();
  private Path sideEffects;

  @AfterEach
  void close() throws Exception {
    for (ChildNode c : children) {
      c.close();
    }
    if (runtime != null) {
      runtime.stop(Duration.ofSeconds(5));
    }
    if (redrive != null) {
      redrive.close();
    }
    if (db != null) {
      db.drop().run();
    }
  }

  private WorkflowClient setUp(StoreKind kind) throws Exception {
    db = kind.newDatabase();
    Store opened = db.open();
    redrive = Redrive.builder(opened).build();
    sideEffects = Files.createTempFile("local-side-effects", ".txt");
    return WorkflowClient.on(redrive);
  }

  /** A child node that takes the instance, runs the local activity and halts in it. */
  private void haltIn(String node) throws Exception {
    ChildNode child =
        ChildNode.start(db.address(), node, "BOTH", CrashRegistry.Mode.NONE, sideEffects);
    children.add(child);
    child.awaitExit(WAIT);
  }

  private WorkflowRuntime survivor() {
    return WorkflowRuntime.builder(
            redrive, CrashRegistry.registry(CrashRegistry.Mode.NONE, sideEffects))
        .nodeId("survivor")
        .turnLeaseTimeout(WorkflowNodeProcess.LEASE)
        .activityLeaseTimeout(WorkflowNodeProcess.LEASE)
        .pollInterval(Duration.ofMillis(50))
        .build()
        .start();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void haltsTwice_anotherNodeFinishes_attemptsHonest_resultKept(StoreKind kind) throws Exception {
    WorkflowClient client = setUp(kind);
    String id = client.start(StartRequest.of("LocalCrash", "x")).instanceId();
    haltIn("doomed"); // attempt 1
    haltIn("doomed"); // attempt 2, after the first lease ran out (one node: no crash loop)

    runtime = survivor();

    assertThat(client.awaitResult(id, WAIT, String.class)).isEqualTo("x survived attempt 3");
    assertThat(Files.readAllLines(sideEffects))
        .containsExactly(
            id + " attempt 1 on doomed",
            id + " attempt 2 on doomed",
            id + " attempt 3 on survivor");
    List<WorkflowEvent> history = client.history(id, 1);
    assertThat(history.stream().filter(e -> e.kind().equals("ACTIVITY_SCHEDULED"))).hasSize(1);
    List<WorkflowEvent> completed =
        history.stream().filter(e -> e.kind().equals("ACTIVITY_COMPLETED")).toList();
    assertThat(completed).hasSize(1);
    JsonNode attempts = JSON.readTree(completed.get(0).data()).path("attempts");
    assertThat(attempts).hasSize(3);
    assertThat(attempts.get(0).path("outcome").asText()).isEqualTo("LEASE_EXPIRED");
    assertThat(attempts.get(0).path("worker").asText()).isEqualTo("doomed");
    assertThat(attempts.get(1).path("outcome").asText()).isEqualTo("LEASE_EXPIRED");
    assertThat(attempts.get(2).path("outcome").asText()).isEqualTo("COMPLETED");
    assertThat(attempts.get(2).path("worker").asText()).isEqualTo("survivor");
    assertThat(
            client.timeline(id).stream()
                .filter(e -> e.kind() == TimelineEntry.Kind.ACTIVITY_ATTEMPT)
                .map(TimelineEntry::outcome))
        .containsExactly("LEASE_EXPIRED", "LEASE_EXPIRED", "COMPLETED");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void alwaysHalts_twoNodesDied_activityPoisoned_notTheInstanceTurn(StoreKind kind)
      throws Exception {
    WorkflowClient client = setUp(kind);
    String id = client.start(StartRequest.of("LocalCrash", "y")).instanceId();
    haltIn("doomed-1");
    haltIn("doomed-2");

    runtime = survivor();

    var info = client.await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().reason()).isEqualTo("POISON");
    assertThat(info.failure().target()).isEqualTo(PoisonTarget.ACTIVITY);
    assertThat(info.failure().activityName()).isEqualTo("HaltingLocal");
    assertThat(info.failure().attempt()).isEqualTo(3);
    assertThat(info.failure().display())
        .startsWith("poison: activity HaltingLocal#1 ")
        .contains("crashed 2 workers (doomed-1, doomed-2) in 3 attempts (max crashes 2)");
    assertThat(Files.readAllLines(sideEffects))
        .as("the survivor never ran it")
        .containsExactly(id + " attempt 1 on doomed-1", id + " attempt 2 on doomed-2");
    List<WorkflowEvent> failed =
        client.history(id, 1).stream().filter(e -> e.kind().equals("ACTIVITY_FAILED")).toList();
    assertThat(failed).hasSize(1);
    assertThat(JSON.readTree(failed.get(0).data()).path("attempts")).hasSize(3);

    // An operator's retry voids the poison; the activity runs again with fresh attempts.
    client.retry(id, "fixed the crash");
    assertThat(client.awaitResult(id, WAIT, String.class)).isEqualTo("y survived attempt 1");
  }
}
