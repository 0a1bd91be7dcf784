package io.redrive.workflow.process;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.Redrive;
import io.redrive.store.Store;
import io.redrive.store.workflow.TurnRow;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.StoreKind;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowEvent;
import io.redrive.workflow.WorkflowRuntime;
import io.redrive.workflow.WorkflowRuntime.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Processes, not threads, where a crash is the point (docs/workflows.md, "Crash mid-turn"): a
 * child-JVM node is killed with SIGKILL in the middle of a turn, and in the middle of an activity;
 * a node in the test JVM finishes the instance. Both stores (the SQLite file shared by the child).
 */
class CrashScenariosTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private StoreKind.TestDb db;
  private Redrive redrive;
  private WorkflowStore store;
  private WorkflowRuntime runtime;
  private ChildNode child;
  private final java.util.List<ChildNode> others = new java.util.ArrayList<>();
  private Path sideEffects;

  @AfterEach
  void close() throws Exception {
    if (child != null) {
      child.close();
    }
    for (ChildNode c : others) {
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
    store = (WorkflowStore) opened;
    redrive = Redrive.builder(opened).build();
    sideEffects = Files.createTempFile("side-effects", ".txt");
    return WorkflowClient.on(redrive);
  }

  private WorkflowRuntime localNode(Role... roles) {
    return localNode(10, 2, roles);
  }

  private WorkflowRuntime localNode(int maxAttempts, Role... roles) {
    return localNode(maxAttempts, 0, roles);
  }

  private WorkflowRuntime localNode(int maxAttempts, int maxCrashes, Role... roles) {
    return WorkflowRuntime.builder(
            redrive, CrashRegistry.registry(CrashRegistry.Mode.NONE, sideEffects))
        .nodeId("survivor")
        .roles(roles)
        .maxAttempts(maxAttempts)
        .maxCrashes(maxCrashes)
        .turnLeaseTimeout(WorkflowNodeProcess.LEASE)
        .activityLeaseTimeout(WorkflowNodeProcess.LEASE)
        .pollInterval(Duration.ofMillis(50))
        .build()
        .start();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void killMidTurn_anotherNodeCommits_oneTurnPerCommittedTurn(StoreKind kind) throws Exception {
    WorkflowClient client = setUp(kind);
    child =
        ChildNode.start(
            db.address(),
            "doomed",
            "ORCHESTRATIONS",
            CrashRegistry.Mode.BLOCK_IN_TURN,
            sideEffects);
    child.awaitLine("READY", WAIT);
    String id = client.start(StartRequest.of("CrashTurn", "x")).instanceId();
    child.awaitLine("IN_TURN " + id, WAIT);

    child.kill();
    runtime = localNode(Role.ORCHESTRATIONS, Role.ACTIVITIES);

    assertThat(client.awaitResult(id, WAIT, String.class)).isEqualTo("side effect of x");
    List<WorkflowEvent> history = client.history(id, 1);
    assertThat(history.stream().filter(e -> e.kind().equals("TURN_STARTED")))
        .as("one TURN_STARTED per committed turn")
        .hasSize(2);
    assertThat(history.stream().filter(e -> e.kind().equals("ACTIVITY_SCHEDULED"))).hasSize(1);
    List<TurnRow> timeline = store.readTimeline(id);
    assertThat(timeline)
        .anySatisfy(
            t -> {
              assertThat(t.outcome()).isEqualTo("LEASE_EXPIRED");
              assertThat(t.node()).isEqualTo("doomed");
            });
    assertThat(Files.readAllLines(sideEffects)).hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void killMidActivity_redelivered_sideEffectTwice_resultShowsTheLostLease(StoreKind kind)
      throws Exception {
    WorkflowClient client = setUp(kind);
    runtime = localNode(Role.ORCHESTRATIONS);
    child =
        ChildNode.start(
            db.address(),
            "doomed",
            "ACTIVITIES",
            CrashRegistry.Mode.BLOCK_IN_ACTIVITY,
            sideEffects);
    child.awaitLine("READY", WAIT);
    String id = client.start(StartRequest.of("CrashTurn", "y")).instanceId();
    child.awaitLine("IN_ACTIVITY " + id, WAIT);

    child.kill();
    WorkflowRuntime activities = localNode(Role.ACTIVITIES);
    try {
      assertThat(client.awaitResult(id, WAIT, String.class)).isEqualTo("side effect of y");
    } finally {
      activities.stop(Duration.ofSeconds(5));
    }

    assertThat(Files.readAllLines(sideEffects)).hasSize(2);
    List<WorkflowEvent> completed =
        client.history(id, 1).stream().filter(e -> e.kind().equals("ACTIVITY_COMPLETED")).toList();
    assertThat(completed).hasSize(1);
    JsonNode attempts = JSON.readTree(completed.get(0).data()).path("attempts");
    assertThat(attempts.toString()).contains("LEASE_EXPIRED");
    assertThat(client.get(id).orElseThrow().status()).isEqualTo(InstanceStatus.COMPLETED);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void crashTwinOfD8_twoNodesDieInTheSameTurn_thirdPoisonsBeforeCode(StoreKind kind)
      throws Exception {
    WorkflowClient client = setUp(kind);
    String id = client.start(StartRequest.of("CrashTurn", "x")).instanceId();
    for (String node : java.util.List.of("doomed-1", "doomed-2")) {
      ChildNode doomed =
          ChildNode.start(
              db.address(),
              node,
              "ORCHESTRATIONS",
              CrashRegistry.Mode.BLOCK_IN_TURN,
              sideEffects,
              2,
              1000,
              60_000);
      others.add(doomed);
      doomed.awaitLine("IN_TURN " + id, WAIT);
      doomed.kill();
    }

    runtime = localNode(2, Role.ORCHESTRATIONS, Role.ACTIVITIES);

    var info = client.await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().reason()).isEqualTo("POISON");
    assertThat(info.failure().attempt()).isEqualTo(3);
    assertThat(info.failure().maxAttempts()).isEqualTo(2);
    assertThat(info.failure().lastAttempt().reason()).isEqualTo("LEASE_EXPIRED");
    assertThat(store.readTimeline(id))
        .filteredOn(t -> t.outcome().equals("LEASE_EXPIRED"))
        .extracting(TurnRow::node)
        .containsExactly("doomed-1", "doomed-2");
    assertThat(Files.readAllLines(sideEffects)).as("the activity never ran").isEmpty();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void crashTwinOfD10_activityKillsTwoNodes_thirdDeliveryPoisonsIt(StoreKind kind)
      throws Exception {
    WorkflowClient client = setUp(kind);
    runtime = localNode(2, Role.ORCHESTRATIONS);
    String id = client.start(StartRequest.of("CrashTurn", "y")).instanceId();
    for (String node : java.util.List.of("doomed-1", "doomed-2")) {
      ChildNode doomed =
          ChildNode.start(
              db.address(),
              node,
              "ACTIVITIES",
              CrashRegistry.Mode.BLOCK_IN_ACTIVITY,
              sideEffects,
              2,
              1000,
              60_000);
      others.add(doomed);
      doomed.awaitLine("IN_ACTIVITY " + id, WAIT);
      doomed.kill();
    }

    WorkflowRuntime activities = localNode(2, Role.ACTIVITIES);
    try {
      var info = client.await(id, WAIT);
      assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
      assertThat(info.failure().target()).isEqualTo(io.redrive.workflow.PoisonTarget.ACTIVITY);
      assertThat(info.failure().attempt()).isEqualTo(3);
      assertThat(info.failure().maxAttempts()).isEqualTo(2);
    } finally {
      activities.stop(Duration.ofSeconds(5));
    }
    assertThat(Files.readAllLines(sideEffects))
        .as("one side effect per crashed delivery")
        .hasSize(2);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void crashLoopBreaker_twoDistinctNodesDied_thirdPoisonsWithoutRunningIt(StoreKind kind)
      throws Exception {
    WorkflowClient client = setUp(kind);
    String id = client.start(StartRequest.of("CrashTurn", "z")).instanceId();
    for (String node : java.util.List.of("doomed-1", "doomed-2")) {
      ChildNode doomed =
          ChildNode.start(
              db.address(), node, "ORCHESTRATIONS", CrashRegistry.Mode.BLOCK_IN_TURN, sideEffects);
      others.add(doomed);
      doomed.awaitLine("IN_TURN " + id, WAIT);
      doomed.kill();
    }

    runtime = localNode(10, 2, Role.ORCHESTRATIONS, Role.ACTIVITIES);

    var info = client.await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().reason()).isEqualTo("POISON");
    assertThat(info.failure().display())
        .isEqualTo(
            "poison: orchestration "
                + id
                + " crashed 2 nodes (doomed-1, doomed-2) in 3 attempts"
                + " (max crashes 2)");
    assertThat(client.history(id, 1))
        .extracting(WorkflowEvent::kind)
        .containsExactly("ORCHESTRATION_STARTED", "TURN_STARTED", "ORCHESTRATION_FAILED");
    assertThat(Files.readAllLines(sideEffects)).as("the third node never ran it").isEmpty();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activityCrashLoop_twoNodesDieInTheActivity_thirdPoisonsItWithoutRunningIt(StoreKind kind)
      throws Exception {
    WorkflowClient client = setUp(kind);
    runtime = localNode(10, 2, Role.ORCHESTRATIONS);
    String id = client.start(StartRequest.of("CrashTurn", "c")).instanceId();
    for (String node : java.util.List.of("doomed-1", "doomed-2")) {
      ChildNode doomed =
          ChildNode.start(
              db.address(), node, "ACTIVITIES", CrashRegistry.Mode.BLOCK_IN_ACTIVITY, sideEffects);
      others.add(doomed);
      doomed.awaitLine("IN_ACTIVITY " + id, WAIT);
      doomed.kill();
      // This node watched the whole lease: once its liveness row has a beat past the lease's
      // expiry (5 s apart), the expiry is evidence that the worker died (docs/engine.md, "Crash
      // evidence"), whoever meets it.
      Thread.sleep(WorkflowNodeProcess.LEASE.plusSeconds(6).toMillis());
    }

    WorkflowRuntime activities = localNode(10, 2, Role.ACTIVITIES);
    try {
      var info = client.await(id, WAIT);
      assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
      assertThat(info.failure().reason()).isEqualTo("POISON");
      assertThat(info.failure().target()).isEqualTo(io.redrive.workflow.PoisonTarget.ACTIVITY);
      assertThat(info.failure().attempt()).isEqualTo(3);
      assertThat(info.failure().maxAttempts()).isEqualTo(10);
      assertThat(info.failure().display())
          .startsWith("poison: activity ")
          .endsWith(
              " crashed 2 workers (doomed-1/wf.activities, doomed-2/wf.activities) in 3 attempts"
                  + " (max crashes 2)");
    } finally {
      activities.stop(Duration.ofSeconds(5));
    }
    assertThat(Files.readAllLines(sideEffects))
        .as("one side effect per crashed delivery, none by the third node")
        .hasSize(2);
  }

  /**
   * The server runs workflow activities itself, so a server killed twice during one activity looks
   * like two crashed workers: with nothing else alive across either lease, each expiry is an outage
   * (docs/engine.md, "Crash evidence"), not counted by the breaker ({@code maxCrashes} 2), and the
   * activity runs a third time and completes.
   */
  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void serverKilledTwiceInOneActivity_expiriesAreOutages_activityCompletes(StoreKind kind)
      throws Exception {
    WorkflowClient client = setUp(kind);
    String id = client.start(StartRequest.of("CrashTurn", "k")).instanceId();
    for (String node : java.util.List.of("server-1", "server-2")) {
      ChildNode server =
          ChildNode.start(
              db.address(), node, "BOTH", CrashRegistry.Mode.BLOCK_IN_ACTIVITY, sideEffects);
      others.add(server);
      server.awaitLine("IN_ACTIVITY " + id, WAIT);
      server.kill();
    }

    WorkflowRuntime restarted = localNode(10, 2, Role.ORCHESTRATIONS, Role.ACTIVITIES);
    try {
      assertThat(client.awaitResult(id, WAIT, String.class)).isEqualTo("side effect of k");
    } finally {
      restarted.stop(Duration.ofSeconds(5));
    }
    assertThat(client.get(id).orElseThrow().status()).isEqualTo(InstanceStatus.COMPLETED);
    assertThat(Files.readAllLines(sideEffects))
        .as("two killed runs and the one that completed")
        .hasSize(3);
    List<WorkflowEvent> completed =
        client.history(id, 1).stream().filter(e -> e.kind().equals("ACTIVITY_COMPLETED")).toList();
    assertThat(completed).hasSize(1);
    assertThat(JSON.readTree(completed.get(0).data()).path("attempts").toString())
        .contains("LEASE_EXPIRED");
  }
}
