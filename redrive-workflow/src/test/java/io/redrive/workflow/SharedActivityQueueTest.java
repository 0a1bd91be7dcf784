package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import io.redrive.workflow.TimelineEntry.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An activity queue shared with another worker (issue 34, item 6): a runtime whose registry has
 * activity "a" on {@code wf.activities} leaves the queue's other types to the workers that handle
 * them, instead of leasing them and bouncing them as UNREGISTERED_HANDLER until they are poisoned.
 */
class SharedActivityQueueTest extends RuntimeHarness {
  private static final Duration UNTOUCHED_FOR = Duration.ofMillis(600);

  private static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Mixed",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              String b = ctx.callActivity("b", in, String.class).await();
              return ctx.callActivity("a", b, String.class).await();
            })
        .activity("a", String.class, String.class, (ctx, in) -> in + "+a")
        .build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activityTheRegistryLacks_isLeftToTheWorkerThatHandlesIt(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry(), b -> b.maxAttempts(3).unregisteredBackoff(FAST));
    String id = client().start(StartRequest.of("Mixed", "x")).instanceId();
    await().atMost(WAIT).until(() -> activityMessage("b").isPresent());

    // The runtime's node polls every 5 ms at most: it would have leased "b" many times by now.
    await("activity b left untouched by the runtime's node")
        .during(UNTOUCHED_FOR)
        .atMost(UNTOUCHED_FOR.multipliedBy(3))
        .until(() -> activityMessage("b").map(Message::attempts).orElse(-1) == 0);

    try (Worker other =
        Worker.builder(redrive, WorkflowDefaults.ACTIVITY_QUEUE)
            .id("other-worker")
            // The other worker must leave "a" to the runtime too: without the filter it may lease
            // "a" first and bounce it as UNREGISTERED_HANDLER until it is poisoned.
            .leaseOnlyHandledTypes(true)
            .pollInterval(Duration.ofMillis(5), Duration.ofMillis(50))
            .handler("b", ctx -> HandlerResult.complete("\"" + "b-done\""))
            .build()
            .start()) {
      assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("b-done+a");
      other.stop(WAIT);
    }
    List<TimelineEntry> deliveriesOfB =
        client().timeline(id).stream()
            .filter(e -> e.kind() == Kind.ACTIVITY_ATTEMPT && "b".equals(e.name()))
            .toList();
    assertThat(deliveriesOfB)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.attempt()).isEqualTo(1);
              assertThat(e.node()).isEqualTo("other-worker");
              assertThat(e.outcome()).isEqualTo("COMPLETED");
            });
  }

  private Optional<Message> activityMessage(String type) {
    return redrive
        .listMessages(MessageQuery.all(WorkflowDefaults.ACTIVITY_QUEUE))
        .messages()
        .stream()
        .filter(m -> type.equals(m.type()))
        .findFirst();
  }
}
