package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.workflow.TimelineEntry.Kind;
import io.redrive.workflow.WorkflowRuntime.Role;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Local activities (docs/workflows.md, "Local and queued activities"): where a call runs, and that
 * a local one keeps the queued one's promises (results in history, retries, timeouts, the
 * timeline), on both stores.
 */
class LocalActivitiesTest extends RuntimeHarness {
  private static final Duration SHORT = Duration.ofSeconds(5);
  private static final TypeReference<String> STRING = new TypeReference<>() {};

  private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
  private final List<String> threads = java.util.Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger maxRunning = new AtomicInteger();

  private ActivityRegistration step(String name, Duration timeout) {
    return ActivityRegistration.of(
            name,
            String.class,
            String.class,
            (ctx, in) -> {
              runs.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
              threads.add(Thread.currentThread().getName());
              return in + ">" + name + "@" + ctx.attempt();
            })
        .withTimeout(timeout);
  }

  private WorkflowRegistry.Builder orchestrations() {
    return WorkflowRegistry.builder()
        .orchestration(
            "ThreeSteps",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              String a = ctx.callActivity("A", in, String.class).await();
              String b = ctx.callActivity("B", a, String.class).await();
              return ctx.callActivity("C", b, String.class).await();
            })
        .orchestration(
            "Flaky",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.callActivity(
                        "FailsTwice",
                        in,
                        STRING,
                        ActivityOptions.local()
                            .withRetry(RetryPolicy.fixed(3, Duration.ofMillis(300))))
                    .await())
        .orchestration(
            "Impatient",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              try {
                return ctx.callActivity(
                        "Sleeps",
                        in,
                        STRING,
                        ActivityOptions.local().withTimeout(Duration.ofMillis(200)))
                    .await();
              } catch (ActivityFailedException e) {
                return "gave up: " + e.failure().reason();
              }
            })
        .orchestration(
            "FanOut",
            "1.0.0",
            Integer.class,
            String.class,
            (ctx, n) -> {
              List<Task<String>> tasks = new ArrayList<>();
              for (int i = 0; i < n; i++) {
                tasks.add(ctx.callActivity("Slow", "x" + i, STRING, ActivityOptions.local()));
              }
              return String.join(",", ctx.allOf(tasks).await());
            })
        .orchestration(
            "Placements",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              String a = ctx.callActivity("NoTimeout", in, String.class).await();
              String b = ctx.callActivity("A", a, STRING, ActivityOptions.queued()).await();
              return ctx.callActivity("A", b, STRING, ActivityOptions.local().withQueue("wf.x"))
                  .await();
            });
  }

  private WorkflowRegistry registry() {
    AtomicInteger fails = new AtomicInteger();
    return orchestrations()
        .activity(step("A", SHORT))
        .activity(step("B", SHORT))
        .activity(step("C", SHORT))
        .activity(
            ActivityRegistration.of(
                "FailsTwice",
                String.class,
                String.class,
                (ctx, in) -> {
                  if (fails.incrementAndGet() <= 2) {
                    throw new IllegalStateException("flaky " + ctx.retryNumber());
                  }
                  return "ok after " + ctx.retryNumber() + " retries";
                }))
        .activity(
            "Sleeps",
            String.class,
            String.class,
            (ctx, in) -> {
              Thread.sleep(5_000);
              return "woke";
            })
        .activity(
            "Slow",
            String.class,
            String.class,
            (ctx, in) -> {
              maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
              try {
                Thread.sleep(300);
              } finally {
                running.decrementAndGet();
              }
              return in.toUpperCase();
            })
        .activity(
            ActivityRegistration.of(
                "NoTimeout", String.class, String.class, (ctx, in) -> in + ">NoTimeout"))
        .build();
  }

  /** The instance's activity link rows: one per queued scheduling, none for a local one. */
  private int linkRows(String id) {
    int[] n = new int[1];
    withConnection(
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT COUNT(*) FROM redrive_wf_activities WHERE instance_id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              n[0] = rs.getInt(1);
            }
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });
    return n[0];
  }

  private List<WorkflowEvent> events(String id, String kind) {
    return client().history(id, 1).stream().filter(e -> e.kind().equals(kind)).toList();
  }

  private List<TimelineEntry> attempts(String id) {
    return client().timeline(id).stream().filter(e -> e.kind() == Kind.ACTIVITY_ATTEMPT).toList();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void threeSteps_runInTheTurn_noQueueMessage_eachAttemptOnTheTimeline(StoreKind kind)
      throws Exception {
    redrive(kind);
    WorkflowRuntime node = runtime(registry());

    String id = client().start(StartRequest.of("ThreeSteps", "in")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("in>A@1>B@1>C@1");
    assertThat(linkRows(id)).as("no activity message was ever scheduled").isZero();
    assertThat(threads).allSatisfy(t -> assertThat(t).startsWith("redrive-wf-turn-"));
    assertThat(events(id, "ACTIVITY_SCHEDULED"))
        .hasSize(3)
        .allSatisfy(e -> assertThat(e.data()).contains("\"local\":true"));
    assertThat(events(id, "ACTIVITY_COMPLETED"))
        .hasSize(3)
        .allSatisfy(e -> assertThat(e.data()).contains("\"messageId\":\"local:" + id + ":1:"));
    assertThat(attempts(id))
        .extracting(TimelineEntry::name, TimelineEntry::attempt, TimelineEntry::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("A", 1, "COMPLETED"),
            org.assertj.core.groups.Tuple.tuple("B", 1, "COMPLETED"),
            org.assertj.core.groups.Tuple.tuple("C", 1, "COMPLETED"));
    assertThat(attempts(id)).allSatisfy(a -> assertThat(a.node()).isEqualTo(node.nodeId()));
    assertThat(workflowStore().readInbox(id)).as("no CHECKPOINT row left behind").isEmpty();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void failingLocal_retriedWithItsBackoff_eachAttemptOnTheTimeline(StoreKind kind)
      throws Exception {
    redrive(kind);
    runtime(registry());

    String id = client().start(StartRequest.of("Flaky", "in")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("ok after 2 retries");
    assertThat(linkRows(id)).isZero();
    assertThat(events(id, "ACTIVITY_SCHEDULED"))
        .hasSize(3)
        .allSatisfy(e -> assertThat(e.data()).contains("\"local\":true"));
    assertThat(events(id, "TIMER_CREATED"))
        .hasSize(2)
        .allSatisfy(e -> assertThat(e.name()).isEqualTo("RETRY"));
    assertThat(events(id, "ACTIVITY_FAILED")).hasSize(2);
    List<TimelineEntry> attempts = attempts(id);
    assertThat(attempts)
        .extracting(TimelineEntry::outcome, TimelineEntry::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("FAILED", "HANDLER_EXCEPTION"),
            org.assertj.core.groups.Tuple.tuple("FAILED", "HANDLER_EXCEPTION"),
            org.assertj.core.groups.Tuple.tuple("COMPLETED", null));
    for (int i = 1; i < attempts.size(); i++) {
      assertThat(Duration.between(attempts.get(i - 1).at(), attempts.get(i).at()))
          .as("the retry policy's delay between tries")
          .isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void localTimeout_interruptsTheTry_catchableTimeout(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry());
    Instant before = Instant.now();

    String id = client().start(StartRequest.of("Impatient", "x")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("gave up: TIMEOUT_EXCEEDED");
    assertThat(Duration.between(before, Instant.now())).isLessThan(Duration.ofSeconds(4));
    assertThat(attempts(id))
        .singleElement()
        .satisfies(a -> assertThat(a.reason()).isEqualTo("TIMEOUT_EXCEEDED"));
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void localFanOut_runsConcurrently_resultsInOrder(StoreKind kind) throws Exception {
    redrive(kind);
    runtime(registry());

    String id = client().start(StartRequest.of("FanOut", 5)).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("X0,X1,X2,X3,X4");
    assertThat(maxRunning.get()).as("the fan-out ran at once").isGreaterThan(1);
    assertThat(linkRows(id)).isZero();
    assertThat(events(id, "ACTIVITY_COMPLETED")).hasSize(5);
    assertThat(attempts(id)).hasSize(5);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void placement_noDeclaredTimeoutOrQueuedOrAQueueNamed_goesThroughTheQueue(StoreKind kind)
      throws Exception {
    redrive(kind);
    runtime(registry(), b -> b.activityQueues("wf.activities", "wf.x"));

    String id = client().start(StartRequest.of("Placements", "in")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("in>NoTimeout>A@1>A@1");
    assertThat(linkRows(id)).isEqualTo(2);
    List<WorkflowEvent> scheduled = events(id, "ACTIVITY_SCHEDULED");
    assertThat(scheduled).hasSize(3);
    assertThat(scheduled.get(0).data()).doesNotContain("\"local\"");
    assertThat(scheduled.get(1).data()).doesNotContain("\"local\"");
    assertThat(scheduled.get(2).data())
        .as("LOCAL wins over a named queue")
        .contains("\"local\":true");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void local_onANodeWithoutTheActivity_goesThroughTheQueue(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRegistry withoutActivities = orchestrations().build();
    runtime(withoutActivities, b -> b.roles(Role.ORCHESTRATIONS));
    runtime(registry(), b -> b.roles(Role.ACTIVITIES));

    String id = client().start(StartRequest.of("Flaky", "in")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("ok after 2 retries");
    assertThat(linkRows(id)).as("each try a queue message").isEqualTo(1);
    assertThat(events(id, "ACTIVITY_SCHEDULED"))
        .hasSize(3)
        .allSatisfy(e -> assertThat(e.data()).doesNotContain("\"local\""));
  }
}
