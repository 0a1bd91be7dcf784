package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.workflow.ReplayCheckReport.InstanceResult;
import io.redrive.workflow.ReplayCheckReport.Outcome;
import io.redrive.workflow.ReplayCheckReport.PinnedVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The live replay check (docs/workflows.md, "Replay check before a deploy") on both stores: 20
 * instances waiting mid-way, a new build that breaks exactly 5 of them (a branch only large orders
 * reached changed, a version it no longer registers), the unchanged build passing, a recorded
 * payload the new build cannot decode, and nothing written by the check.
 */
class ReplayCheckTest extends RuntimeHarness {
  record Order(String id, int cents) {}

  /**
   * order@1.0.0 reserves, asks for a review when {@code reviewActivity} is not null and the order
   * is large, then waits for the warehouse; order@0.9.0 only when {@code withOld}.
   */
  private static WorkflowRegistry build(String reviewActivity, boolean withOld) {
    WorkflowRegistry.Builder b =
        WorkflowRegistry.builder()
            .orchestration(
                "order",
                "1.0.0",
                Order.class,
                String.class,
                (ctx, order) -> {
                  ctx.callActivity("reserve", order, String.class).await();
                  if (order.cents() > 10_000) {
                    ctx.callActivity(reviewActivity, order, String.class).await();
                  }
                  ctx.setStatus("waiting");
                  return ctx.waitForEvent("shipped", String.class).await();
                })
            .activity("reserve", Order.class, String.class, (ctx, o) -> "reserved " + o.id())
            .activity("review", Order.class, String.class, (ctx, o) -> "reviewed " + o.id())
            .activity("audit", Order.class, String.class, (ctx, o) -> "audited " + o.id());
    if (withOld) {
      b.orchestration(
          "order",
          "0.9.0",
          Order.class,
          String.class,
          (ctx, order) -> {
            ctx.setStatus("waiting");
            return ctx.waitForEvent("shipped", String.class).await();
          });
    }
    return b.build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void checkLive_changedBuild_listsExactlyTheInstancesItBreaks(StoreKind kind) {
    redrive(kind);
    WorkflowRuntime running = runtime(build("review", true));
    WorkflowClient client = client();
    List<String> large = new ArrayList<>();
    List<String> old = new ArrayList<>();
    List<String> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String id = "order-" + i;
      StartRequest start = StartRequest.of("order", new Order(id, 100 * i)).withInstanceId(id);
      if (i % 7 == 3) {
        start = StartRequest.of("order", new Order(id, 50_000)).withInstanceId(id); // 3, 10, 17
        large.add(id);
      } else if (i == 5 || i == 12) {
        start = start.withVersion("0.9.0");
        old.add(id);
      }
      client.start(start);
      all.add(id);
    }
    await().atMost(WAIT).until(() -> all.stream().allMatch(id -> waiting(client, id)));
    running.close();
    Map<String, Object> before = snapshot(client, all);

    ReplayCheckReport same = WorkflowReplayer.checkLive(build("review", true), client);
    ReplayCheckReport changed = WorkflowReplayer.checkLive(build("audit", false), client);

    assertThat(same.ok()).as(same.toText()).isTrue();
    assertThat(same.checked()).isEqualTo(20);
    assertThat(same.breaking()).isEmpty();
    assertThat(changed.ok()).isFalse();
    assertThat(changed.checked()).isEqualTo(20);
    assertThat(changed.breaking())
        .extracting(InstanceResult::id)
        .containsExactlyInAnyOrder(
            large.get(0), large.get(1), large.get(2), old.get(0), old.get(1));
    InstanceResult drifted = byId(changed, large.get(0));
    WorkflowEvent review =
        client.history(large.get(0), 1).stream()
            .filter(r -> "ACTIVITY_SCHEDULED".equals(r.kind()) && "review".equals(r.name()))
            .findFirst()
            .orElseThrow();
    assertThat(drifted.outcome()).isEqualTo(Outcome.NONDETERMINISM);
    assertThat(drifted.pinned()).isEqualTo("order@1.0.0");
    assertThat(drifted.eventId()).isEqualTo(review.eventId());
    assertThat(drifted.command()).isEqualTo(2L);
    assertThat(drifted.expected()).isEqualTo("ACTIVITY_SCHEDULED review");
    assertThat(drifted.actual()).isEqualTo("ACTIVITY_SCHEDULED audit");
    assertThat(drifted.message())
        .startsWith(
            "nondeterminism: "
                + large.get(0)
                + " execution 1 command #2: history has ACTIVITY_SCHEDULED review, code issued"
                + " ACTIVITY_SCHEDULED audit");
    InstanceResult retired = byId(changed, old.get(0));
    assertThat(retired.outcome()).isEqualTo(Outcome.UNREGISTERED);
    assertThat(retired.pinned()).isEqualTo("order@0.9.0");
    assertThat(changed.versions())
        .containsExactly(
            new PinnedVersion("order", "0.9.0", 2, false),
            new PinnedVersion("order", "1.0.0", 18, true));
    assertThat(changed.toText())
        .startsWith("replay check: 20 instances checked, 5 would break\n")
        .contains(
            "NONDETERMINISM     "
                + large.get(0)
                + " order@1.0.0 execution 1 at event #"
                + review.eventId()
                + " (command #2): history has ACTIVITY_SCHEDULED review, code issued"
                + " ACTIVITY_SCHEDULED audit\n")
        .contains(
            "order@0.9.0      2 instances  NOT REGISTERED: 2 instances pinned to order@0.9.0"
                + " would back off and poison\n");
    assertThat(ReplayCheckReport.fromJson(changed.toJson())).isEqualTo(changed);
    ReplayCheckReport limited =
        WorkflowReplayer.checkLive(
            build("audit", false), client, ReplayCheckOptions.running().withLimit(7));
    assertThat(limited.checked()).isEqualTo(7);
    assertThat(limited.truncated()).isTrue();
    assertThat(snapshot(client, all)).isEqualTo(before);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void checkLive_recordedPayloadNoLongerDecodes_isUndecodable(StoreKind kind) {
    redrive(kind);
    WorkflowRuntime running =
        runtime(
            WorkflowRegistry.builder()
                .orchestration(
                    "parcel",
                    "1.0.0",
                    String.class,
                    String.class,
                    (ctx, id) -> {
                      String weight = ctx.callActivity("weigh", id, String.class).await();
                      ctx.setStatus("waiting");
                      return ctx.waitForEvent("picked", String.class).await() + weight;
                    })
                .activity("weigh", String.class, String.class, (ctx, id) -> "heavy")
                .build());
    WorkflowClient client = client();
    String id = client.start(StartRequest.of("parcel", "p-1").withInstanceId("p-1")).instanceId();
    await().atMost(WAIT).until(() -> waiting(client, id));
    running.close();
    Map<String, Object> before = snapshot(client, List.of(id));
    // The new build reads the weight as a number of grams: "heavy" no longer decodes.
    WorkflowRegistry grams =
        WorkflowRegistry.builder()
            .orchestration(
                "parcel",
                "1.0.0",
                String.class,
                String.class,
                (ctx, p) -> {
                  Integer weight = ctx.callActivity("weigh", p, Integer.class).await();
                  ctx.setStatus("waiting");
                  return ctx.waitForEvent("picked", String.class).await() + weight;
                })
            .build();

    ReplayCheckReport report = WorkflowReplayer.checkLive(grams, client);

    assertThat(report.breaking()).hasSize(1);
    InstanceResult r = report.breaking().get(0);
    assertThat(r.id()).isEqualTo("p-1");
    assertThat(r.outcome()).isEqualTo(Outcome.UNDECODABLE);
    assertThat(r.message()).contains("weigh").contains("Integer");
    assertThat(report.toText()).contains("UNDECODABLE        p-1 parcel@1.0.0 execution 1: ");
    assertThat(snapshot(client, List.of(id))).isEqualTo(before);
  }

  private static boolean waiting(WorkflowClient client, String id) {
    return client
        .get(id)
        .map(i -> i.status() == InstanceStatus.RUNNING && "\"waiting\"".equals(i.customStatus()))
        .orElse(false);
  }

  private static InstanceResult byId(ReplayCheckReport report, String id) {
    return report.instances().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
  }

  /** Each instance as stored, with its whole history. */
  private static Map<String, Object> snapshot(WorkflowClient client, List<String> ids) {
    Map<String, Object> state = new HashMap<>();
    for (String id : ids) {
      state.put(id, List.of(client.get(id).orElseThrow(), client.history(id, null)));
    }
    return state;
  }
}
