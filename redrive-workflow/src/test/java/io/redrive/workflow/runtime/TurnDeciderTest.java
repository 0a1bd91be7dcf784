package io.redrive.workflow.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.store.workflow.ActivityResult;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.TurnRow;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.PoisonTarget;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.InboxMessage;
import io.redrive.workflow.replay.Payloads;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * The decider on hand-made leases, with no store and no database: each policy step of a turn
 * (docs/workflows.md, "What each case does") gives the decision it should, and user code runs only
 * where it may.
 */
class TurnDeciderTest {
  private static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final AtomicInteger codeRuns = new AtomicInteger();

  private final Orchestration<Object, Object> order =
      (ctx, in) -> {
        codeRuns.incrementAndGet();
        return ctx.callActivity("charge", in, String.class).await();
      };

  private final WorkflowRegistry registry =
      WorkflowRegistry.builder()
          .orchestration("order", "1.0.0", Object.class, Object.class, order)
          .activity("charge", String.class, String.class, (ctx, in) -> in)
          .build();

  /** The registry's code as the runtime looks it up (a test in this package cannot ask it). */
  private final OrchestrationCode.Lookup code =
      (name, version) ->
          "order".equals(name) && "1.0.0".equals(version)
              ? Optional.of(new OrchestrationCode(order, String.class))
              : Optional.empty();

  private TurnDecider decider(int maxAttempts, int maxCrashes) {
    return new TurnDecider(
        settings(maxAttempts, maxCrashes),
        registry,
        code,
        new Payloads(MAPPER, 256 * 1024),
        Clock.fixed(NOW, ZoneOffset.UTC),
        NOPLogger.NOP_LOGGER);
  }

  private static RuntimeSettings settings(int maxAttempts, int maxCrashes) {
    return new RuntimeSettings(
        "node-a",
        "build-1",
        maxAttempts,
        maxCrashes,
        new UnregisteredHandlerBackoff(Duration.ofSeconds(1), 6, Duration.ofSeconds(60)),
        Duration.ofSeconds(15),
        Duration.ofSeconds(60),
        Duration.ofSeconds(30),
        4,
        8,
        Set.of(ActivityOptions.DEFAULT_QUEUE),
        500,
        10_000,
        16L * 1024 * 1024,
        Duration.ofMillis(50),
        true,
        true,
        0,
        Duration.ZERO);
  }

  private static InstanceRow instance(String name, Status status) {
    return new InstanceRow(
        "i-1",
        name,
        null,
        null,
        status,
        1,
        null,
        "i-1",
        "\"in\"",
        null,
        null,
        null,
        NOW,
        NOW,
        null,
        NOW,
        1,
        "node-a",
        NOW.plusSeconds(15),
        0,
        0,
        null,
        null,
        null);
  }

  private static InboxRow start() {
    return new InboxRow(1, null, "START", null, "order", "\"in\"", NOW, NOW);
  }

  private static TurnLease lease(
      InstanceRow instance, int attempt, List<InboxRow> batch, List<HistoryRow> history) {
    return new TurnLease(instance, "token", attempt, batch, history, List.of());
  }

  @Test
  void decide_firstTurn_runsCodeAndCommitsStartTurnAndActivity() {
    Decision d =
        decider(10, 2)
            .decide(lease(instance("order", Status.PENDING), 1, List.of(start()), List.of()), NOW);

    Decision.Commit c = (Decision.Commit) d;
    assertThat(codeRuns).hasValue(1);
    assertThat(c.outcome()).isEqualTo("COMMITTED");
    assertThat(c.params().history())
        .extracting(HistoryRow::kind)
        .containsExactly(
            EventKind.ORCHESTRATION_STARTED, EventKind.TURN_STARTED, EventKind.ACTIVITY_SCHEDULED);
    assertThat(c.params().activities())
        .singleElement()
        .satisfies(a -> assertThat(a.name()).isEqualTo("charge"));
    assertThat(c.params().activities().get(0).message().message().queue())
        .isEqualTo(ActivityOptions.DEFAULT_QUEUE);
    assertThat(c.params().instance().status()).isEqualTo(Status.RUNNING);
    assertThat(c.params().inboxDeletes()).containsExactly(1L);
  }

  @Test
  void decide_attemptPastMax_poisonsWithoutRunningCode() {
    Decision d =
        decider(3, 2)
            .decide(lease(instance("order", Status.PENDING), 4, List.of(start()), List.of()), NOW);

    Decision.Commit c = (Decision.Commit) d;
    assertThat(codeRuns).hasValue(0);
    assertThat(c.params().instance().status()).isEqualTo(Status.FAILED);
    WorkflowFailure failure = WorkflowFailure.fromJson(c.params().instance().failure());
    assertThat(failure.reason()).isEqualTo(WorkflowFailure.POISON);
    assertThat(failure.target()).isEqualTo(PoisonTarget.ORCHESTRATION);
    assertThat(failure.attempt()).isEqualTo(4);
    assertThat(failure.maxAttempts()).isEqualTo(3);
    assertThat(c.observations()).contains(new Observation.Poisoned("orchestration"));
  }

  @Test
  void decide_unregisteredName_abandonsWithBackoffNoHistory() {
    Decision d =
        decider(10, 2)
            .decide(
                lease(instance("unknown", Status.PENDING), 2, List.of(start()), List.of()), NOW);

    Decision.Abandon a = (Decision.Abandon) d;
    assertThat(a.outcome()).isEqualTo("UNREGISTERED");
    assertThat(a.delay()).isEqualTo(Duration.ofSeconds(2));
    assertThat(a.message()).contains("unknown@(no version)", "node-a");
    assertThat(a.observations()).contains(new Observation.Unregistered("unknown"));
  }

  @Test
  void decide_terminateRequested_terminatesBeforePoisonWithoutCode() {
    InboxRow terminate =
        new InboxRow(2, null, "TERMINATE", null, null, "{\"reason\":\"ops\"}", NOW, NOW);

    Decision d =
        decider(3, 2)
            .decide(
                lease(instance("order", Status.PENDING), 9, List.of(start(), terminate), List.of()),
                NOW);

    Decision.Commit c = (Decision.Commit) d;
    assertThat(codeRuns).hasValue(0);
    assertThat(c.outcome()).isEqualTo("TERMINATED");
    assertThat(c.params().instance().status()).isEqualTo(Status.TERMINATED);
    assertThat(c.params().history())
        .extracting(HistoryRow::kind)
        .endsWith(EventKind.ORCHESTRATION_TERMINATED);
  }

  @Test
  void decide_leaseExpiredOnTwoNodes_crashLoopPoison() {
    List<TurnRow> turns =
        List.of(
            new TurnRow(1, 1, 1, "node-x", NOW, NOW, "LEASE_EXPIRED", null, null),
            new TurnRow(2, 1, 2, "node-y", NOW, NOW, "LEASE_EXPIRED", null, null));
    TurnLease lease =
        new TurnLease(
            instance("order", Status.PENDING), "token", 3, List.of(start()), List.of(), turns);

    Decision.Commit c = (Decision.Commit) decider(10, 2).decide(lease, NOW);

    assertThat(codeRuns).hasValue(0);
    WorkflowFailure failure = WorkflowFailure.fromJson(c.params().instance().failure());
    assertThat(failure.display()).contains("crashed 2 nodes (node-x, node-y)");
  }

  @Test
  void decide_historyRowUnreadable_abandonsOneSecondCounted() {
    HistoryRow garbage =
        new HistoryRow(1, 1, EventKind.ORCHESTRATION_STARTED, null, "order", "{not json", 1, NOW);

    Decision d =
        decider(10, 2)
            .decide(
                lease(instance("order", Status.RUNNING), 1, List.of(start()), List.of(garbage)),
                NOW);

    Decision.Abandon a = (Decision.Abandon) d;
    assertThat(a.outcome()).isEqualTo("HISTORY_UNREADABLE");
    assertThat(a.delay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(codeRuns).hasValue(0);
  }

  @Test
  void decide_historyHasOtherCommand_bouncesNondeterminism() {
    List<HistoryRow> history = scheduled("refund");
    InboxRow raised = new InboxRow(5, null, "EVENT_RAISED", null, "ping", "1", NOW, NOW);

    Decision d =
        decider(10, 2)
            .decide(lease(instance("order", Status.RUNNING), 1, List.of(raised), history), NOW);

    Decision.Abandon a = (Decision.Abandon) d;
    assertThat(a.outcome()).isEqualTo(WorkflowFailure.NONDETERMINISM);
    assertThat(a.message())
        .contains(
            "command #1: history has ACTIVITY_SCHEDULED refund, code issued ACTIVITY_SCHEDULED charge");
    assertThat(a.observations()).contains(new Observation.Nondeterminism("order", "1.0.0"));
  }

  @Test
  void decide_activityPoisonedInBatch_failsInstanceBeforeCode() {
    List<HistoryRow> history = scheduled("charge");
    String data =
        "{\"messageId\":\"m-1\",\"outcome\":\"POISONED\",\"attempt\":11,\"failure\":{...}}";
    ActivityResult poisoned =
        new ActivityResult(
            "m-1",
            ActivityResult.Outcome.POISONED,
            11,
            null,
            new FailureRecord(
                FailureReason.POISON, "poison: message m-1", false, 11, 10, null, NOW, null, "{}"),
            null,
            "[]");
    InboxRow result = new InboxRow(7, 1, "ACTIVITY_RESULT", 1L, "charge", data, NOW, NOW, poisoned);

    Decision.Commit c =
        (Decision.Commit)
            decider(10, 2)
                .decide(lease(instance("order", Status.RUNNING), 1, List.of(result), history), NOW);

    assertThat(codeRuns).hasValue(0);
    assertThat(c.params().history())
        .extracting(HistoryRow::kind)
        .containsExactly(
            EventKind.TURN_STARTED, EventKind.ACTIVITY_FAILED, EventKind.ORCHESTRATION_FAILED);
    WorkflowFailure failure = WorkflowFailure.fromJson(c.params().instance().failure());
    assertThat(failure.target()).isEqualTo(PoisonTarget.ACTIVITY);
    assertThat(failure.activityName()).isEqualTo("charge");
    assertThat(c.observations()).contains(new Observation.Poisoned("activity"));
  }

  /** The turn that takes {@code result} for activity #1 of {@code history}, decided. */
  private WorkflowFailure failureAfter(
      int maxAttempts, List<HistoryRow> history, ActivityResult result) {
    InboxRow row = new InboxRow(7, 1, "ACTIVITY_RESULT", 1L, "charge", "{}", NOW, NOW, result);
    Decision.Commit c =
        (Decision.Commit)
            decider(maxAttempts, 0)
                .decide(lease(instance("order", Status.RUNNING), 1, List.of(row), history), NOW);
    assertThat(codeRuns).hasValue(0);
    return WorkflowFailure.fromJson(c.params().instance().failure());
  }

  @Test
  void decide_activityPoisonedAfterUnregisteredDeliveries_failureNamesTheLastOne() {
    String story =
        "[{\"attempt\":1,\"outcome\":\"ABANDONED\",\"worker\":\"w-1\","
            + "\"reason\":\"UNREGISTERED_HANDLER\",\"error\":\"no handler for type charge\"},"
            + "{\"attempt\":2,\"outcome\":\"ABANDONED\",\"worker\":\"w-2\","
            + "\"reason\":\"UNREGISTERED_HANDLER\",\"error\":\"no handler for type charge\"},"
            + "{\"attempt\":3,\"outcome\":\"POISONED\",\"reason\":\"POISON\","
            + "\"error\":\"poison: message m-1\"}]";
    ActivityResult poisoned =
        new ActivityResult(
            "m-1",
            ActivityResult.Outcome.POISONED,
            3,
            null,
            new FailureRecord(
                FailureReason.POISON, "poison: message m-1", false, 3, 2, null, NOW, null, "{}"),
            null,
            story);

    WorkflowFailure failure = failureAfter(2, scheduled("charge"), poisoned);

    assertThat(failure.display())
        .isEqualTo(
            "poison: activity charge#1 exceeded 3 attempts (max 2); last attempt:"
                + " UNREGISTERED_HANDLER: no handler for type charge");
    assertThat(failure.lastAttempt().reason()).isEqualTo("UNREGISTERED_HANDLER");
    assertThat(failure.lastAttempt().attempt()).isEqualTo(2);
    assertThat(failure.lastAttempt().display())
        .isEqualTo("UNREGISTERED_HANDLER on w-2: no handler for type charge");
  }

  @Test
  void decide_localActivityPoisonedAfterCrashes_failureNamesTheLastCrashAsAQueuedOneWould() {
    LocalActivities locals =
        new LocalActivities(registry, MAPPER, settings(2, 0), Clock.fixed(NOW, ZoneOffset.UTC));
    List<InboxMessage.LocalCrash> crashes =
        List.of(
            new InboxMessage.LocalCrash(1, 0, "node-x", NOW, NOW),
            new InboxMessage.LocalCrash(1, 0, "node-x", NOW, NOW));
    ActivityResult poisoned =
        locals
            .run(
                "i-1",
                1,
                List.of(new LocalRun(1, "charge", 0, MAPPER.valueToTree("in"), null, crashes)))
            .get(0);
    assertThat(poisoned.outcome()).isEqualTo(ActivityResult.Outcome.POISONED);

    WorkflowFailure failure = failureAfter(2, scheduledLocally("charge"), poisoned);

    assertThat(failure.target()).isEqualTo(PoisonTarget.ACTIVITY);
    assertThat(failure.display())
        .isEqualTo(
            "poison: activity charge#1 exceeded 3 attempts (max 2); last attempt: LEASE_EXPIRED:"
                + " lease expired: node node-x did not finish the local activity within its turn"
                + " lease (crash, kill or hang)");
    assertThat(failure.lastAttempt().reason()).isEqualTo("LEASE_EXPIRED");
    assertThat(failure.lastAttempt().category()).isEqualTo("infrastructure");
    assertThat(failure.lastAttempt().attempt()).isEqualTo(2);
  }

  @Test
  void decide_activityResultTheStoreCouldNotRead_failsTheTurnBeforeCode() {
    List<HistoryRow> history = scheduled("charge");
    InboxRow unread = new InboxRow(7, 1, "ACTIVITY_RESULT", 1L, "charge", "{oops", NOW, NOW);

    assertThatThrownBy(
            () ->
                decider(10, 2)
                    .decide(
                        lease(instance("order", Status.RUNNING), 1, List.of(unread), history), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inbox row 7 (ACTIVITY_RESULT)");
    assertThat(codeRuns).hasValue(0);
  }

  private static final String STARTED =
      "{\"instanceId\":\"i-1\",\"name\":\"order\",\"version\":\"1.0.0\",\"input\":\"in\","
          + "\"firstSeq\":1,\"carriedEvents\":[]}";
  private static final String TURN = "{\"turn\":1,\"node\":\"node-a\",\"attempt\":1}";

  /** The stored history of a first turn that scheduled activity {@code name} as command #1. */
  private static List<HistoryRow> scheduled(String name) {
    return List.of(
        row(1, EventKind.ORCHESTRATION_STARTED, null, "order", STARTED),
        row(2, EventKind.TURN_STARTED, null, null, TURN),
        row(
            3,
            EventKind.ACTIVITY_SCHEDULED,
            1L,
            name,
            "{\"seq\":1,\"name\":\"" + name + "\",\"input\":\"in\",\"retryNumber\":0}"));
  }

  @Test
  void decide_endedInstance_dropsLateRowsAsStale() {
    InboxRow late = new InboxRow(9, 1, "TIMER_FIRED", 3L, "USER", "{\"seq\":3}", NOW, NOW);

    Decision.Commit c =
        (Decision.Commit)
            decider(10, 2)
                .decide(
                    lease(instance("order", Status.COMPLETED), 1, List.of(late), List.of()), NOW);

    assertThat(c.outcome()).isEqualTo("STALE");
    assertThat(c.params().history()).isEmpty();
    assertThat(c.params().inboxDeletes()).containsExactly(9L);
    assertThat(c.observations()).contains(new Observation.StaleResults(1));
  }

  /** The stored first turn with {@code name} scheduled as a local activity, #1. */
  private static List<HistoryRow> scheduledLocally(String name) {
    List<HistoryRow> rows = new java.util.ArrayList<>(scheduled(name).subList(0, 2));
    rows.add(
        row(
            3,
            EventKind.ACTIVITY_SCHEDULED,
            1L,
            name,
            "{\"seq\":1,\"name\":\""
                + name
                + "\",\"input\":\"in\",\"retryNumber\":0,\"local\":true}"));
    return rows;
  }

  @Test
  void decide_crashesWhileALocalActivityRan_chargedToIt_notToTheTurn() {
    List<TurnRow> turns =
        List.of(
            new TurnRow(1, 1, 1, "node-x", NOW, NOW, "LEASE_EXPIRED", null, null),
            new TurnRow(2, 1, 2, "node-y", NOW, NOW, "LEASE_EXPIRED", null, null));
    InboxRow checkpoint = new InboxRow(7, null, "CHECKPOINT", null, null, null, NOW, NOW);
    TurnLease lease =
        new TurnLease(
            instance("order", Status.RUNNING),
            "token",
            3,
            List.of(checkpoint),
            scheduledLocally("charge"),
            turns);

    // max 2 attempts and 2 crashes: either turn rule would poison the orchestration
    Decision.Commit c = (Decision.Commit) decider(2, 2).decide(lease, NOW);

    assertThat(c.params().instance().status()).isEqualTo(Status.RUNNING);
    assertThat(c.params().instance().failure()).isNull();
    assertThat(c.locals())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.name()).isEqualTo("charge");
              assertThat(r.crashes())
                  .extracting(InboxMessage.LocalCrash::node)
                  .containsExactly("node-x", "node-y");
            });
    assertThat(c.params().inboxDeletes()).containsExactly(7L);
    assertThat(c.params().inboxInserts())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo("CHECKPOINT");
              assertThat(r.data()).contains("node-x").contains("node-y");
            });
    assertThat(c.params().activities()).as("a local activity has no message").isEmpty();
  }

  @Test
  void decide_sameCrashesWithoutALocalActivity_poisonTheTurn() {
    List<TurnRow> turns =
        List.of(
            new TurnRow(1, 1, 1, "node-x", NOW, NOW, "LEASE_EXPIRED", null, null),
            new TurnRow(2, 1, 2, "node-y", NOW, NOW, "LEASE_EXPIRED", null, null));
    InboxRow timer = new InboxRow(7, 1, "TIMER_FIRED", 9L, "USER", "{\"seq\":9}", NOW, NOW);
    TurnLease lease =
        new TurnLease(
            instance("order", Status.RUNNING),
            "token",
            3,
            List.of(timer),
            scheduled("charge"),
            turns);

    Decision.Commit c = (Decision.Commit) decider(2, 2).decide(lease, NOW);

    assertThat(c.params().instance().status()).isEqualTo(Status.FAILED);
    assertThat(c.locals()).isEmpty();
  }

  @Test
  void decide_localActivityThisNodeDoesNotRegister_bouncesCounted() {
    TurnLease lease =
        new TurnLease(
            instance("order", Status.RUNNING),
            "token",
            2,
            List.of(new InboxRow(7, null, "CHECKPOINT", null, null, null, NOW, NOW)),
            scheduledLocally("elsewhere"),
            List.of());

    Decision d = decider(10, 2).decide(lease, NOW);

    assertThat(d).isInstanceOf(Decision.Abandon.class);
    assertThat(((Decision.Abandon) d).reason()).isEqualTo("UNREGISTERED_ACTIVITY");
    assertThat(codeRuns).hasValue(0);
  }

  private static HistoryRow row(int eventId, String kind, Long seq, String name, String data) {
    return new HistoryRow(1, eventId, kind, seq, name, data, 1, NOW);
  }
}
