package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.store.workflow.HistoryRow;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The history cache (docs/workflows.md, "History cache"): a node's next turn of an instance it ran
 * reads only the inbox; a copy the store takes but the turn cannot use is never acted on — the turn
 * is decided again from the stored history.
 */
class HistoryCacheTest extends RuntimeHarness {
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  /** Waits for three events, one turn each, and joins them. */
  private static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Collect",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              List<String> got = new ArrayList<>();
              for (int i = 0; i < 3; i++) {
                got.add(ctx.waitForEvent("go", String.class).await());
              }
              return String.join(",", got);
            })
        .build();
  }

  private double cache(String result) {
    var c = meters.find("redrive.workflow.history.cache").tag("result", result).counter();
    return c == null ? 0 : c.count();
  }

  private double committedTurns() {
    var c = meters.find("redrive.workflow.turns").tag("outcome", "COMMITTED").counter();
    return c == null ? 0 : c.count();
  }

  /** Raises event {@code n} (1-based) and waits for the turn that takes it. */
  private void raiseAndWait(String id, int n, String payload) {
    client().raiseEvent(id, "go", payload, null);
    await().atMost(WAIT).until(() -> committedTurns() >= n + 1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void turnsAfterTheFirst_takeTheNodesCopy(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry(), b -> b.meterRegistry(meters));
    String id = client().start(StartRequest.of("Collect", "x")).instanceId();
    await().atMost(WAIT).until(() -> committedTurns() >= 1);

    raiseAndWait(id, 1, "a");
    raiseAndWait(id, 2, "b");
    raiseAndWait(id, 3, "c");

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("a,b,c");
    assertThat(cache("hit")).as("every lease after the first").isEqualTo(3);
    assertThat(cache("fallback")).isZero();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void cacheOff_everyLeaseReadsTheHistory(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry(), b -> b.meterRegistry(meters).historyCacheSize(0));
    String id = client().start(StartRequest.of("Collect", "x")).instanceId();
    await().atMost(WAIT).until(() -> committedTurns() >= 1);

    raiseAndWait(id, 1, "a");
    raiseAndWait(id, 2, "b");
    raiseAndWait(id, 3, "c");

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("a,b,c");
    assertThat(cache("hit") + cache("miss")).isZero();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void copyTheStoreTakesButTheTurnCannotRead_isDecidedAgainFromTheStoredHistory(StoreKind kind)
      throws Exception {
    redrive(kind);
    WorkflowRuntime runtime = runtime(registry(), b -> b.meterRegistry(meters));
    String id = client().start(StartRequest.of("Collect", "x")).instanceId();
    await().atMost(WAIT).until(() -> committedTurns() >= 1);
    raiseAndWait(id, 1, "a");
    // Damage the copy so that it still matches every counter the store checks (events, bytes,
    // ids) but does not decode: an unknown kind on the first event.
    List<HistoryRow> stored = workflowStore().readHistory(id, 1);
    List<HistoryRow> damaged = new ArrayList<>(stored);
    HistoryRow first = stored.get(0);
    damaged.set(
        0,
        new HistoryRow(
            first.executionId(),
            first.eventId(),
            "NOT_A_KIND",
            first.seq(),
            first.name(),
            first.data(),
            first.turn(),
            first.at()));
    runtime.processor().replaceCachedHistory(id, damaged);

    raiseAndWait(id, 2, "b");
    raiseAndWait(id, 3, "c");

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("a,b,c");
    assertThat(cache("fallback")).isEqualTo(1);
    assertThat(meters.find("redrive.workflow.turns").tag("outcome", "HISTORY_UNREADABLE").counter())
        .as("no try was counted against the instance")
        .isNull();
  }
}
