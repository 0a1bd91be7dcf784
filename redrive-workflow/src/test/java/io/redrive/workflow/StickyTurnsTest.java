package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sticky turns (docs/workflows.md, "History cache"): the next turn of an instance goes to the node
 * that keeps its history; when that node dies, another takes the turn once the waiting row has been
 * visible for {@code stickyWait}, and at once when it stopped gracefully or keeps no history.
 */
class StickyTurnsTest extends RuntimeHarness {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int EVENTS = 6;
  private static final Duration FOREVER = Duration.ofHours(1);

  /** Waits for {@link #EVENTS} events, one turn each, and joins them. */
  private static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Collect",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              List<String> got = new ArrayList<>();
              for (int i = 0; i < EVENTS; i++) {
                got.add(ctx.waitForEvent("go", String.class).await());
              }
              return String.join(",", got);
            })
        .build();
  }

  /** The node of each turn of the instance's first execution, with the time the turn started. */
  private record Turn(String node, Instant at) {}

  private List<Turn> turns(String id) {
    List<Turn> out = new ArrayList<>();
    for (WorkflowEvent e : client().history(id, 1)) {
      if ("TURN_STARTED".equals(e.kind())) {
        try {
          out.add(new Turn(JSON.readTree(e.data()).path("node").asText(), e.at()));
        } catch (java.io.IOException x) {
          throw new IllegalStateException(x);
        }
      }
    }
    return out;
  }

  /** Starts an instance and waits for its first turn; returns its id. */
  private String startAndWaitForTheFirstTurn() {
    String id = client().start(StartRequest.of("Collect", "x")).instanceId();
    await().atMost(WAIT).until(() -> turns(id).size() == 1);
    return id;
  }

  /** Raises the events one at a time, each after the turn that took the one before. */
  private void raiseEach(String id, int from, int to) {
    for (int n = from; n <= to; n++) {
      client().raiseEvent(id, "go", "e" + n, null);
      int turnsAfter = n + 1;
      await().atMost(WAIT).until(() -> turns(id).size() >= turnsAfter);
    }
  }

  private WorkflowRuntime nodeOf(List<WorkflowRuntime> nodes, String nodeId) {
    return nodes.stream().filter(r -> r.nodeId().equals(nodeId)).findFirst().orElseThrow();
  }

  private List<WorkflowRuntime> twoNodes(Duration stickyWait, int historyCacheSize) {
    return List.of(
        runtime(registry(), b -> b.stickyWait(stickyWait).historyCacheSize(historyCacheSize)),
        runtime(registry(), b -> b.stickyWait(stickyWait).historyCacheSize(historyCacheSize)));
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void twoNodes_everyTurnRunsOnTheNodeThatRanTheFirst(StoreKind kind) throws Exception {
    redrive(kind);
    twoNodes(FOREVER, 1000);
    String id = startAndWaitForTheFirstTurn();

    raiseEach(id, 1, EVENTS);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("e1,e2,e3,e4,e5,e6");
    assertThat(turns(id).stream().map(Turn::node).distinct()).hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void stickyNodeDies_theOtherTakesTheTurnOnceTheRowWaitedStickyWait(StoreKind kind)
      throws Exception {
    redrive(kind);
    Duration stickyWait = Duration.ofSeconds(2);
    List<WorkflowRuntime> nodes = twoNodes(stickyWait, 1000);
    String id = startAndWaitForTheFirstTurn();
    String sticky = turns(id).get(0).node();

    nodeOf(nodes, sticky).halt();
    Instant raised = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    raiseEach(id, 1, EVENTS);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("e1,e2,e3,e4,e5,e6");
    List<Turn> after = turns(id).subList(1, EVENTS + 1);
    assertThat(after).extracting(Turn::node).doesNotContain(sticky);
    assertThat(after.get(0).at())
        .as("the first turn after the death waited for the sticky node")
        .isAfterOrEqualTo(raised.plus(stickyWait));
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void stickyNodeStopsGracefully_theOtherTakesTheTurnAtOnce(StoreKind kind) throws Exception {
    redrive(kind);
    List<WorkflowRuntime> nodes = twoNodes(FOREVER, 1000);
    String id = startAndWaitForTheFirstTurn();
    String sticky = turns(id).get(0).node();

    nodeOf(nodes, sticky).stop(WAIT);
    raiseEach(id, 1, EVENTS);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("e1,e2,e3,e4,e5,e6");
    assertThat(turns(id).subList(1, EVENTS + 1)).extracting(Turn::node).doesNotContain(sticky);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void nodesWithoutACache_neverMakeAnInstanceWait(StoreKind kind) throws Exception {
    redrive(kind);
    List<WorkflowRuntime> nodes = twoNodes(FOREVER, 0);
    String id = startAndWaitForTheFirstTurn();

    nodeOf(nodes, turns(id).get(0).node()).halt();
    raiseEach(id, 1, EVENTS);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("e1,e2,e3,e4,e5,e6");
  }

  @Test
  void builder_negativeStickyWait_isRefused() {
    redrive(StoreKind.SQLITE);
    WorkflowRuntime.Builder b = WorkflowRuntime.builder(redrive, registry());

    assertThatThrownBy(() -> b.stickyWait(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("stickyWait: must not be negative, was PT-0.001S");
    assertThatThrownBy(() -> b.stickyWait(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("stickyWait: must not be negative, was null");
  }
}
