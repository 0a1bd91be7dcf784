package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.queue.QueueUpdate;
import io.redrive.testkit.ControllableClock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Activities are messages, so their queue serves them by priority (issue 32, item 6): a call's
 * {@code ActivityOptions.priority}, or the activity queue's {@code defaultPriority} when it gives
 * none. On both stores, with the controllable clock.
 */
class ActivityPrioritiesTest extends RuntimeHarness {
  private static final TypeReference<String> STRING = new TypeReference<>() {};

  private final List<String> ran = Collections.synchronizedList(new ArrayList<>());

  private WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Mixed",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              // One turn issues all four, so they are enqueued in one commit in this order.
              List<Task<String>> calls = new ArrayList<>();
              calls.add(ctx.callActivity("work", "low", STRING, priority(1)));
              calls.add(ctx.callActivity("work", "default", STRING, ActivityOptions.queued()));
              calls.add(ctx.callActivity("work", "high", STRING, priority(9)));
              calls.add(ctx.callActivity("work", "mid", STRING, priority(5)));
              return String.join(",", ctx.allOf(calls).await());
            })
        .activity(
            "work",
            String.class,
            String.class,
            (ctx, in) -> {
              ran.add(in);
              return in;
            })
        .build();
  }

  private static ActivityOptions priority(int value) {
    return ActivityOptions.defaults().withPriority(value);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void oneSlotActivityWorker_runsTheHigherPriorityFirst_unsetTakesTheQueueDefault(StoreKind kind)
      throws Exception {
    redrive(kind, ControllableClock.startingAtEpochOfTests());
    runtime(registry(), b -> b.activityConcurrency(1));
    redrive.updateQueue(
        WorkflowDefaults.ACTIVITY_QUEUE, QueueUpdate.builder().defaultPriority(3).build());

    String id = client().start(StartRequest.of("Mixed", "go")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("low,default,high,mid");
    assertThat(ran).containsExactly("high", "mid", "default", "low");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activityMessage_carriesTheCallsPriorityAndLimitKey(StoreKind kind) throws Exception {
    redrive(kind, ControllableClock.startingAtEpochOfTests());
    // No runtime runs activities here: the message waits in its queue to be looked at.
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "One",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) ->
                    ctx.callActivity(
                            "elsewhere",
                            in,
                            STRING,
                            ActivityOptions.defaults().withPriority(7).withLimitKey("tenant-1"))
                        .await())
            .build();
    runtime(registry);

    client().start(StartRequest.of("One", "x"));

    Message m = awaitActivityMessage();
    assertThat(m.type()).isEqualTo("elsewhere");
    assertThat(m.priority()).isEqualTo(7);
    assertThat(m.limitKey()).isEqualTo("tenant-1");
  }

  private Message awaitActivityMessage() {
    return org.awaitility.Awaitility.await()
        .atMost(WAIT)
        .until(
            () ->
                redrive.listMessages(MessageQuery.all(WorkflowDefaults.ACTIVITY_QUEUE)).messages(),
            l -> !l.isEmpty())
        .get(0);
  }
}
