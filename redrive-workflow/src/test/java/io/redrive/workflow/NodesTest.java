package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A running runtime publishes itself among the live nodes (docs/workflows.md, "Nodes"), leaves the
 * list when it stops, and a start of an orchestration no live node runs carries a warning.
 */
class NodesTest extends RuntimeHarness {
  private static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration("Greet", "1.0.0", String.class, String.class, (ctx, in) -> "hi " + in)
        .orchestration("Greet", "1.1.0", String.class, String.class, (ctx, in) -> "hello " + in)
        .activity(
            ActivityRegistration.of("Upper", String.class, String.class, (ctx, in) -> in)
                .withQueue("wf.upper"))
        .build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void start_runtime_isListedWithWhatItRuns(StoreKind kind) {
    redrive(kind);
    WorkflowRuntime runtime =
        runtime(registry(), b -> b.nodeId("node-a").buildId("build-7").orchestrationConcurrency(3));

    List<WorkflowNode> nodes = client().nodes();

    assertThat(nodes).hasSize(1);
    WorkflowNode node = nodes.get(0);
    assertThat(node.nodeId()).isEqualTo("node-a");
    assertThat(node.buildId()).isEqualTo("build-7");
    assertThat(node.orchestrations()).isEqualTo(Map.of("Greet", List.of("1.0.0", "1.1.0")));
    assertThat(node.activities()).isEqualTo(Map.of("Upper", "wf.upper"));
    assertThat(node.orchestrationConcurrency()).isEqualTo(3);
    assertThat(node.activityConcurrency()).isEqualTo(32);
    assertThat(node.startedAt()).isEqualTo(runtime.node().startedAt());
    assertThat(node.lastSeenAt()).isAfterOrEqualTo(node.startedAt());
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void stop_runtime_leavesTheList(StoreKind kind) {
    redrive(kind);
    WorkflowRuntime runtime = runtime(registry(), b -> b.nodeId("node-a"));
    runtime(registry(), b -> b.nodeId("node-b").roles(WorkflowRuntime.Role.ACTIVITIES));

    runtime.close();

    List<WorkflowNode> nodes = client().nodes();
    assertThat(nodes).extracting(WorkflowNode::nodeId).containsExactly("node-b");
    assertThat(nodes.get(0).orchestrations()).isEmpty();
    assertThat(nodes.get(0).orchestrationConcurrency()).isZero();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void start_noLiveNodeRunsIt_warnsAndStillStarts(StoreKind kind) {
    redrive(kind);
    runtime(registry(), b -> b.nodeId("node-a"));
    WorkflowClient client = client();

    StartResult runs = client.start(StartRequest.of("Greet", "ada"));
    StartResult pinned = client.start(StartRequest.of("Greet", "ada").withVersion("1.1.0"));
    StartResult unknownVersion = client.start(StartRequest.of("Greet", "ada").withVersion("2.0.0"));
    StartResult unknown = client.start(StartRequest.of("Ship", "ada"));

    assertThat(runs.warning()).isNull();
    assertThat(pinned.warning()).isNull();
    assertThat(unknownVersion.warning())
        .isEqualTo(
            "no live node runs version 2.0.0 of orchestration \"Greet\"; the instance waits"
                + " until a node that registers it starts");
    assertThat(unknown.warning()).startsWith("no live node runs orchestration \"Ship\"");
    assertThat(client.get(unknown.instanceId())).isPresent();
  }
}
