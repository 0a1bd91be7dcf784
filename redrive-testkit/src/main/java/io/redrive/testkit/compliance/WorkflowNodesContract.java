package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.store.workflow.NodeRow;
import io.redrive.store.workflow.PublishNodeParams;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The live workflow nodes (docs/workflows.md, "Nodes"), run unchanged on every store: a node's row
 * is written at its start and rewritten on its heartbeat, counts as live until it expires, is
 * deleted when the node stops, and an expired row leaves the table at the next publish.
 */
public abstract class WorkflowNodesContract extends ComplianceTestBase {
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final String REGISTRATIONS = "{\"orchestrations\":{\"ship-order\":[\"1.0\"]}}";

  private WorkflowStore workflows() {
    return (WorkflowStore) store;
  }

  private void publish(String node, String build, String registrations, Instant startedAt) {
    workflows()
        .publishNode(
            new PublishNodeParams(node, build, registrations, startedAt, now().plus(TTL), now()));
  }

  @Test
  void publishNode_new_isListedWithWhatItSaid() {
    Instant started = now();
    publish("node-b", "build-7", REGISTRATIONS, started);
    publish("node-a", null, "{}", started);

    assertThat(workflows().listNodes(now()))
        .containsExactly(
            new NodeRow("node-a", null, "{}", started, started, started.plus(TTL)),
            new NodeRow("node-b", "build-7", REGISTRATIONS, started, started, started.plus(TTL)));
  }

  @Test
  void publishNode_again_rewritesTheRowAndExtendsIt() {
    Instant started = now();
    publish("node-a", "build-1", "{}", started);
    Instant later = advance(Duration.ofSeconds(20));

    publish("node-a", "build-2", REGISTRATIONS, started);

    assertThat(workflows().listNodes(later.plus(Duration.ofSeconds(25))))
        .containsExactly(
            new NodeRow("node-a", "build-2", REGISTRATIONS, started, later, later.plus(TTL)));
  }

  @Test
  void listNodes_pastExpiry_leavesTheNodeOut() {
    publish("node-a", null, "{}", now());

    assertThat(workflows().listNodes(now().plus(TTL).minus(MILLI))).hasSize(1);
    assertThat(workflows().listNodes(now().plus(TTL))).isEmpty();
  }

  @Test
  void publishNode_deletesRowsThatExpired() {
    publish("dead-node", null, "{}", now());
    advance(TTL);

    publish("node-a", null, "{}", now());

    // Read as of the dead node's own time: gone from the table, not merely filtered out.
    assertThat(workflows().listNodes(now().minus(TTL)))
        .extracting(NodeRow::nodeId)
        .containsExactly("node-a");
  }

  @Test
  void removeNode_deletesOnlyThatRow() {
    publish("node-a", null, "{}", now());
    publish("node-b", null, "{}", now());

    assertThat(workflows().removeNode("node-a")).isTrue();
    assertThat(workflows().removeNode("node-a")).isFalse();
    assertThat(workflows().listNodes(now())).extracting(NodeRow::nodeId).containsExactly("node-b");
  }

  @Test
  void publishNode_expiryNotAfterNow_isRefused() {
    assertThatThrownBy(() -> new PublishNodeParams("node-a", null, "{}", now(), now(), now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("expiresAt: must be after now");
  }
}
