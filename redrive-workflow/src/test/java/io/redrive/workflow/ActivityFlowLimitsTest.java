package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.QueueUpdate;
import io.redrive.queue.Rate;
import io.redrive.testkit.ControllableClock;
import io.redrive.workflow.TimelineEntry.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Activities are messages, so their queue's flow limits hold them as any message (issue 32, item
 * 6): a call's {@code ActivityOptions.limitKey} is the message's limit key; a key at its cap, out
 * of tokens or slowed down waits without using attempts, and the workflows finish. On both stores,
 * with the controllable clock: waiting is never a sleep of the clock.
 */
class ActivityFlowLimitsTest extends RuntimeHarness {
  private static final TypeReference<String> STRING = new TypeReference<>() {};

  /** How long the tests watch that something does not happen (the worker polls every 5–50 ms). */
  private static final Duration WATCH = Duration.ofMillis(500);

  private static final Duration SLOW_DOWN = Duration.ofSeconds(30);

  private ControllableClock clock;
  private final List<String> entered = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> mostRunning = new ConcurrentHashMap<>();
  private final Map<String, List<Integer>> slowedAttempts = new ConcurrentHashMap<>();
  private final CountDownLatch release = new CountDownLatch(1);

  private WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Keyed",
            "1.0.0",
            String.class,
            String.class,
            (ctx, key) ->
                ctx.callActivity("hold", key, STRING, ActivityOptions.defaults().withLimitKey(key))
                    .await())
        .orchestration(
            "Slowed",
            "1.0.0",
            String.class,
            String.class,
            (ctx, key) ->
                ctx.callActivity(
                        "slowOnce", key, STRING, ActivityOptions.defaults().withLimitKey(key))
                    .await())
        .orchestration(
            "SlowedWithTimeout",
            "1.0.0",
            String.class,
            String.class,
            (ctx, key) ->
                ctx.callActivity(
                        "slowOnce",
                        key,
                        STRING,
                        // The call's own timeout runs the activity under ActivityInvocation.within.
                        ActivityOptions.defaults()
                            .withLimitKey(key)
                            .withTimeout(Duration.ofMinutes(5)))
                    .await())
        .activity("hold", String.class, String.class, (ctx, key) -> hold(key))
        .activity(
            "slowOnce",
            String.class,
            String.class,
            (ctx, key) -> {
              List<Integer> attempts = slowedAttempts(key);
              attempts.add(ctx.attempt());
              if (attempts.size() == 1) {
                throw new SlowDownException(SLOW_DOWN); // a dependency answered 429
              }
              return key;
            })
        .build();
  }

  private List<Integer> slowedAttempts(String key) {
    return slowedAttempts.computeIfAbsent(
        key, k -> Collections.synchronizedList(new ArrayList<>()));
  }

  /** Runs as one running message of {@code key} until the test lets go. */
  private String hold(String key) throws InterruptedException {
    int now = running.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    mostRunning.computeIfAbsent(key, k -> new AtomicInteger()).accumulateAndGet(now, Math::max);
    entered.add(key);
    try {
      release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return key;
    } finally {
      running.get(key).decrementAndGet();
    }
  }

  private void start(StoreKind kind, FlowLimits limits) {
    clock = ControllableClock.startingAtEpochOfTests();
    redrive(kind, clock);
    runtime(registry(), b -> b.activityConcurrency(4));
    if (limits != null) {
      redrive.updateQueue(
          WorkflowDefaults.ACTIVITY_QUEUE, QueueUpdate.builder().limits(limits).build());
    }
  }

  private String startInstance(String orchestration, String key) {
    return client().start(StartRequest.of(orchestration, key)).instanceId();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void maxRunningPerKeyOne_twoWorkflowsOfOneKey_neverRunTogether_otherKeysGoOn(StoreKind kind)
      throws Exception {
    start(kind, FlowLimits.singleton());

    String first = startInstance("Keyed", "tenant-1");
    String second = startInstance("Keyed", "tenant-1");
    String other = startInstance("Keyed", "tenant-2");

    await().atMost(WAIT).until(() -> entered.contains("tenant-1") && entered.contains("tenant-2"));
    await("the second tenant-1 activity waits while the first runs")
        .during(WATCH)
        .atMost(WATCH.multipliedBy(4))
        .until(() -> entered.size() == 2 && waiting("tenant-1").size() == 1);
    assertThat(waiting("tenant-1").get(0).attempts())
        .as("a held message keeps its attempts")
        .isZero();

    release.countDown();
    for (String id : List.of(first, second, other)) {
      assertThat(client().awaitResult(id, WAIT, String.class)).startsWith("tenant-");
    }
    assertThat(entered).filteredOn("tenant-1"::equals).hasSize(2);
    assertThat(mostRunning.get("tenant-1").get()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void ratePerKey_heldActivityWaitsForItsTokenWithoutUsingAttempts(StoreKind kind)
      throws Exception {
    start(kind, FlowLimits.NONE.withRatePerKey(Rate.of(1, Duration.ofHours(1))));
    release.countDown(); // "hold" returns at once here

    String first = startInstance("Keyed", "tenant-1");
    assertThat(client().awaitResult(first, WAIT, String.class)).isEqualTo("tenant-1");
    String second = startInstance("Keyed", "tenant-1");
    String other = startInstance("Keyed", "tenant-2");
    assertThat(client().awaitResult(other, WAIT, String.class))
        .as("another key has tokens of its own")
        .isEqualTo("tenant-2");

    await("the second tenant-1 activity waits for a token")
        .during(WATCH)
        .atMost(WATCH.multipliedBy(4))
        .until(() -> waiting("tenant-1").size() == 1);
    assertThat(waiting("tenant-1").get(0).attempts()).isZero();

    clock.advance(Duration.ofHours(1));
    assertThat(client().awaitResult(second, WAIT, String.class)).isEqualTo("tenant-1");
    assertThat(activityAttempts(second)).containsExactly(1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void slowDown_holdsTheKey_refundsTheAttempt_andTheWorkflowsComplete(StoreKind kind)
      throws Exception {
    start(kind, null); // a slow-down holds its key on a queue without limits too

    String slowed = startInstance("Slowed", "slow-key");
    await()
        .atMost(WAIT)
        .until(() -> slowedAttempts("slow-key").size() == 1 && waiting("slow-key").size() == 1);
    String sameKey = startInstance("Keyed", "slow-key");
    String other = startInstance("Keyed", "tenant-2");
    release.countDown();
    assertThat(client().awaitResult(other, WAIT, String.class)).isEqualTo("tenant-2");

    await("the slowed key's messages wait for the hold")
        .during(WATCH)
        .atMost(WATCH.multipliedBy(4))
        .until(() -> waiting("slow-key").size() == 2);
    assertThat(waiting("slow-key")).allSatisfy(m -> assertThat(m.attempts()).isZero());

    clock.advance(SLOW_DOWN);
    assertThat(client().awaitResult(slowed, WAIT, String.class)).isEqualTo("slow-key");
    assertThat(client().awaitResult(sameKey, WAIT, String.class)).isEqualTo("slow-key");
    assertThat(slowedAttempts("slow-key"))
        .as("the slowed delivery's attempt was refunded")
        .containsExactly(1, 1);
    List<TimelineEntry> deliveries =
        client().timeline(slowed).stream().filter(e -> e.kind() == Kind.ACTIVITY_ATTEMPT).toList();
    assertThat(deliveries.get(deliveries.size() - 1))
        .satisfies(
            e -> {
              assertThat(e.outcome()).isEqualTo("COMPLETED");
              assertThat(e.attempt()).isEqualTo(1);
            });
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void slowDown_inACallWithItsOwnTimeout_slowsDownToo(StoreKind kind) throws Exception {
    start(kind, null);

    String id = startInstance("SlowedWithTimeout", "timed-key");
    await()
        .atMost(WAIT)
        .until(() -> slowedAttempts("timed-key").size() == 1 && waiting("timed-key").size() == 1);
    assertThat(waiting("timed-key").get(0).attempts()).isZero();

    clock.advance(SLOW_DOWN);
    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("timed-key");
    assertThat(slowedAttempts("timed-key")).containsExactly(1, 1);
  }

  /** The activity messages of {@code key} waiting (not leased) in the activity queue. */
  private List<Message> waiting(String key) {
    return redrive
        .listMessages(MessageQuery.all(WorkflowDefaults.ACTIVITY_QUEUE))
        .messages()
        .stream()
        .filter(m -> key.equals(m.limitKey()))
        .filter(m -> m.state() == MessageState.READY || m.state() == MessageState.SCHEDULED)
        .toList();
  }

  /** The attempt numbers of the deliveries of {@code instanceId}'s activities, in order. */
  private List<Integer> activityAttempts(String instanceId) {
    return client().timeline(instanceId).stream()
        .filter(e -> e.kind() == Kind.ACTIVITY_ATTEMPT)
        .map(TimelineEntry::attempt)
        .toList();
  }
}
