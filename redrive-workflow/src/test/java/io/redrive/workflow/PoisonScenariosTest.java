package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.testkit.ControllableClock;
import io.redrive.testkit.TestHooks;
import io.redrive.workflow.WorkflowRuntime.Role;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * The poison scenarios of docs/workflows.md (duroxide's D-8…D-21, D-24, D-25), on both stores:
 * poison is decided before any user code, at both levels, and travels up unchanged.
 */
class PoisonScenariosTest extends RuntimeHarness {
  private final AtomicInteger bodyRuns = new AtomicInteger();
  private final AtomicInteger activityRuns = new AtomicInteger();
  private final AtomicInteger catches = new AtomicInteger();

  private WorkflowRegistry.Builder base() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Counted",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              bodyRuns.incrementAndGet();
              return in;
            })
        .orchestration(
            "CallsActivity",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              bodyRuns.incrementAndGet();
              return ctx.callActivity("TestActivity", in, String.class).await();
            })
        .activity(
            "TestActivity",
            String.class,
            String.class,
            (ctx, in) -> {
              activityRuns.incrementAndGet();
              return "done " + in;
            });
  }

  private Message onlyActivityMessage() {
    List<Message> messages =
        redrive.listMessages(MessageQuery.all(WorkflowDefaults.ACTIVITY_QUEUE)).messages();
    assertThat(messages).hasSize(1);
    return messages.get(0);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d8_turnCounterAtMax_poisonsBeforeCode(StoreKind kind) {
    redrive(kind);
    String id = client().start(StartRequest.of("Counted", "x")).instanceId();
    withConnection(c -> TestHooks.setTurnAttempt(c, id, 10));

    runtime(base().build());

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    WorkflowFailure f = info.failure();
    assertThat(f.reason()).isEqualTo("POISON");
    assertThat(f.category()).isEqualTo("poison");
    assertThat(f.retryable()).isFalse();
    assertThat(f.attempt()).isEqualTo(11);
    assertThat(f.maxAttempts()).isEqualTo(10);
    assertThat(f.target()).isEqualTo(PoisonTarget.ORCHESTRATION);
    assertThat(f.instanceId()).isEqualTo(id);
    assertThat(f.executionId()).isEqualTo(1);
    assertThat(f.poisonedMessage()).contains("START");
    assertThat(bodyRuns).hasValue(0);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void terminateRequested_turnCounterAtMax_terminatesInsteadOfPoisoning(StoreKind kind) {
    redrive(kind);
    String id = client().start(StartRequest.of("Counted", "x")).instanceId();
    withConnection(c -> TestHooks.setTurnAttempt(c, id, 10));
    client().terminate(id, "stop it");

    runtime(base().build());

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.TERMINATED);
    assertThat(info.failure().message()).isEqualTo("stop it");
    assertThat(bodyRuns).hasValue(0);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d9_maxThreeInjectedThree_poisonsAtFour(StoreKind kind) {
    redrive(kind);
    String id = client().start(StartRequest.of("Counted", "x")).instanceId();
    withConnection(c -> TestHooks.setTurnAttempt(c, id, 3));

    runtime(base().build(), b -> b.maxAttempts(3));

    WorkflowFailure f = client().await(id, WAIT).failure();
    assertThat(f.attempt()).isEqualTo(4);
    assertThat(f.maxAttempts()).isEqualTo(3);
    assertThat(f.display())
        .isEqualTo("poison: orchestration " + id + " exceeded 4 attempts (max 3)");
    assertThat(bodyRuns).hasValue(0);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d10_activityMessageAtMax_poisonsActivityAndOrchestration(StoreKind kind) {
    redrive(kind);
    WorkflowRegistry registry = base().build();
    runtime(registry, b -> b.roles(Role.ORCHESTRATIONS));
    String id = client().start(StartRequest.of("CallsActivity", "x")).instanceId();
    await()
        .atMost(WAIT)
        .until(
            () ->
                !redrive
                    .listMessages(MessageQuery.all(WorkflowDefaults.ACTIVITY_QUEUE))
                    .messages()
                    .isEmpty());
    Message scheduled = onlyActivityMessage();
    withConnection(c -> TestHooks.setMessageAttempts(c, scheduled.id(), 10));

    runtime(registry, b -> b.roles(Role.ACTIVITIES));

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    WorkflowFailure f = info.failure();
    assertThat(f.reason()).isEqualTo("POISON");
    assertThat(f.target()).isEqualTo(PoisonTarget.ACTIVITY);
    assertThat(f.attempt()).isEqualTo(11);
    assertThat(f.maxAttempts()).isEqualTo(10);
    assertThat(f.instanceId()).isEqualTo(id);
    assertThat(f.executionId()).isEqualTo(1);
    assertThat(f.activityName()).isEqualTo("TestActivity");
    assertThat(f.activityId()).isPositive();
    assertThat(f.display())
        .isEqualTo("poison: activity TestActivity#1 exceeded 11 attempts (max 10)");
    assertThat(f.poisonedMessage()).isNotEmpty();
    assertThat(activityRuns).hasValue(0);
    Message dead = redrive.getMessage(scheduled.id());
    assertThat(dead.state()).isEqualTo(MessageState.DEAD);
    assertThat(dead.history()).extracting(h -> h.outcome()).contains(Outcome.POISONED);
    assertThat(client().history(id, 1))
        .extracting(WorkflowEvent::kind)
        .endsWith("ACTIVITY_FAILED", "ORCHESTRATION_FAILED");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d11_unregisteredActivity_poisonIsNotCatchable(StoreKind kind) {
    redrive(kind);
    WorkflowRegistry registry =
        base()
            .orchestration(
                "Catcher",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  try {
                    return ctx.callActivity("Missing", in, String.class).await();
                  } catch (ActivityFailedException e) {
                    catches.incrementAndGet();
                    return "caught";
                  }
                })
            .build();
    runtime(registry, b -> b.maxAttempts(3).unregisteredBackoff(FAST));
    catchAllActivityWorker("Missing"); // the runtime leaves an activity it lacks to others

    String id = client().start(StartRequest.of("Catcher", "x")).instanceId();

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().reason()).isEqualTo("POISON");
    assertThat(info.failure().target()).isEqualTo(PoisonTarget.ACTIVITY);
    assertThat(info.failure().activityName()).isEqualTo("Missing");
    assertThat(catches).hasValue(0);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d12_childPoisoned_parentFailsWithItsFailureVia(StoreKind kind) {
    redrive(kind);
    WorkflowRegistry registry =
        base()
            .orchestration(
                "Parent",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  try {
                    return ctx.callSubOrchestration("MissingChild", in, String.class).await();
                  } catch (SubOrchestrationFailedException e) {
                    catches.incrementAndGet();
                    return "caught";
                  }
                })
            .build();
    runtime(registry, b -> b.maxAttempts(3).unregisteredBackoff(FAST));

    String id = client().start(StartRequest.of("Parent", "x")).instanceId();

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    WorkflowFailure f = info.failure();
    assertThat(f.reason()).isEqualTo("POISON");
    assertThat(f.target()).isEqualTo(PoisonTarget.ORCHESTRATION);
    assertThat(f.instanceId()).isEqualTo(id + "::sub::1").startsWith(id);
    assertThat(f.executionId()).isEqualTo(1);
    assertThat(f.via()).containsExactly(id + "::sub::1");
    assertThat(catches).hasValue(0);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d13_grandchildActivityPoisoned_grandparentShowsIt(StoreKind kind) {
    redrive(kind);
    WorkflowRegistry registry =
        base()
            .orchestration(
                "Grandparent",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.callSubOrchestration("Middle", in, String.class).await())
            .orchestration(
                "Middle",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.callActivity("ChildActivity", in, String.class).await())
            .build();
    runtime(registry, b -> b.maxAttempts(3).unregisteredBackoff(FAST));
    catchAllActivityWorker("ChildActivity"); // the runtime leaves an activity it lacks to others

    String id = client().start(StartRequest.of("Grandparent", "x")).instanceId();

    WorkflowFailure f = client().await(id, WAIT).failure();
    assertThat(f.reason()).isEqualTo("POISON");
    assertThat(f.target()).isEqualTo(PoisonTarget.ACTIVITY);
    assertThat(f.activityName()).isEqualTo("ChildActivity");
    assertThat(f.attempt()).isEqualTo(4);
    assertThat(f.maxAttempts()).isEqualTo(3);
    assertThat(f.instanceId()).isEqualTo(id + "::sub::1");
    assertThat(f.via()).containsExactly(id + "::sub::1");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d14_neverStarted_firstLeasePoisoned_instanceFailedWithStartEvent(StoreKind kind) {
    redrive(kind);
    String id = client().start(StartRequest.of("NeverRuns", "in-1")).instanceId();
    withConnection(c -> TestHooks.setTurnAttempt(c, id, 10));

    runtime(base().build());

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.name()).isEqualTo("NeverRuns");
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    List<WorkflowEvent> history = client().history(id, 1);
    assertThat(history)
        .extracting(WorkflowEvent::kind)
        .containsExactly("ORCHESTRATION_STARTED", "TURN_STARTED", "ORCHESTRATION_FAILED");
    assertThat(history.get(0).data())
        .contains("\"name\":\"NeverRuns\"")
        .contains("\"version\":\"unresolved\"")
        .contains("\"input\":\"in-1\"");
    assertThat(history.get(2).data()).contains("\"reason\":\"POISON\"");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d16_maxAttemptsFive_honouredAtBothLevels(StoreKind kind) {
    redrive(kind);
    WorkflowRegistry registry = base().build();
    String orchestration = client().start(StartRequest.of("Counted", "x")).instanceId();
    withConnection(c -> TestHooks.setTurnAttempt(c, orchestration, 5));
    runtime(registry, b -> b.maxAttempts(5).roles(Role.ORCHESTRATIONS));
    assertThat(client().await(orchestration, WAIT).failure().attempt()).isEqualTo(6);

    String withActivity = client().start(StartRequest.of("CallsActivity", "x")).instanceId();
    await()
        .atMost(WAIT)
        .until(
            () ->
                !redrive
                    .listMessages(MessageQuery.all(WorkflowDefaults.ACTIVITY_QUEUE))
                    .messages()
                    .isEmpty());
    String messageId = onlyActivityMessage().id();
    withConnection(c -> TestHooks.setMessageAttempts(c, messageId, 5));
    runtime(registry, b -> b.maxAttempts(5).roles(Role.ACTIVITIES));

    WorkflowFailure f = client().await(withActivity, WAIT).failure();
    assertThat(f.target()).isEqualTo(PoisonTarget.ACTIVITY);
    assertThat(f.attempt()).isEqualTo(6);
    assertThat(f.maxAttempts()).isEqualTo(5);
    assertThat(bodyRuns).hasValue(1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d17_unregisteredTurn_abandonedWithTheBackoffOfItsAttempt(StoreKind kind) {
    ControllableClock clock = ControllableClock.startingAtEpochOfTests();
    redrive(kind, clock);
    runtime(base().build(), b -> b.maxAttempts(10));

    String id = client().start(StartRequest.of("NotHere", "x")).instanceId();

    await().atMost(WAIT).until(() -> workflowStore().readTimeline(id).size() == 1);
    InstanceRow row = workflowStore().findInstance(id).orElseThrow();
    assertThat(row.notBefore())
        .as("1 s after the first try, the default backoff")
        .isEqualTo(clock.instant().plus(UnregisteredHandlerBackoff.DEFAULT.delayAfter(1)))
        .isEqualTo(clock.instant().plusSeconds(1));
    assertThat(row.turnAttempt()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    await().atMost(WAIT).until(() -> workflowStore().readTimeline(id).size() == 2);
    assertThat(workflowStore().findInstance(id).orElseThrow().notBefore())
        .as("2 s after the second")
        .isEqualTo(clock.instant().plusSeconds(2));
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d18_unregisteredNameAndVersion_warnWithTheAttemptsLeft(StoreKind kind) {
    Logger logger = (Logger) LoggerFactory.getLogger("io.redrive.workflow.runtime");
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      redrive(kind);
      runtime(base().build(), b -> b.maxAttempts(3).unregisteredBackoff(FAST).nodeId("node-x"));
      String id = client().start(StartRequest.of("Counted", "x").withVersion("9.9.9")).instanceId();

      assertThat(client().await(id, WAIT).failure().reason()).isEqualTo("POISON");

      assertThat(appender.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .filteredOn(m -> m.contains(id))
          .filteredOn(m -> m.startsWith("Orchestration not registered"))
          .hasSize(3)
          .anySatisfy(m -> assertThat(m).contains("will poison in 2 more attempts"))
          .anySatisfy(m -> assertThat(m).contains("will poison in 1 more attempts"))
          .anySatisfy(m -> assertThat(m).contains("will poison in 0 more attempts"))
          .allSatisfy(m -> assertThat(m).contains("name Counted", "version 9.9.9", "node node-x"));
    } finally {
      logger.detachAppender(appender);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d19_unknownActivity_poisonsTheOrchestration(StoreKind kind) {
    redrive(kind);
    WorkflowRegistry registry =
        base()
            .orchestration(
                "CallsUnknown",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.callActivity("NoSuchActivity", in, String.class).await())
            .build();
    runtime(registry, b -> b.maxAttempts(3).unregisteredBackoff(FAST));
    catchAllActivityWorker("NoSuchActivity"); // the runtime leaves an activity it lacks to others

    String id = client().start(StartRequest.of("CallsUnknown", "x")).instanceId();

    WorkflowFailure f = client().await(id, WAIT).failure();
    assertThat(f.reason()).isEqualTo("POISON");
    assertThat(f.target()).isEqualTo(PoisonTarget.ACTIVITY);
    assertThat(f.activityName()).isEqualTo("NoSuchActivity");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d20_continueAsNewToMissingVersion_poisonsExecutionTwo(StoreKind kind) {
    redrive(kind);
    WorkflowRegistry registry =
        base()
            .orchestration(
                "Upgrader",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.continueAsNew("3.0.0", in))
            .build();
    runtime(registry, b -> b.maxAttempts(3).unregisteredBackoff(FAST));

    String id = client().start(StartRequest.of("Upgrader", "x")).instanceId();

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.executionId()).isEqualTo(2);
    assertThat(info.failure().reason()).isEqualTo("POISON");
    assertThat(info.failure().executionId()).isEqualTo(2);
    assertThat(client().history(id, 1))
        .extracting(WorkflowEvent::kind)
        .endsWith("CONTINUED_AS_NEW");
    assertThat(client().history(id, 2))
        .extracting(WorkflowEvent::kind)
        .containsExactly("ORCHESTRATION_STARTED", "TURN_STARTED", "ORCHESTRATION_FAILED");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d21_poisonedInstance_deletedWithoutForce(StoreKind kind) {
    redrive(kind);
    runtime(base().build(), b -> b.maxAttempts(2).unregisteredBackoff(FAST));
    String id = client().start(StartRequest.of("Unknown", "x")).instanceId();
    assertThat(client().await(id, WAIT).status()).isEqualTo(InstanceStatus.FAILED);

    assertThat(client().delete(id, false).instances()).isEqualTo(1);

    assertThat(client().get(id)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d24_poisonAtBothLevels_countedByLevel(StoreKind kind) {
    redrive(kind);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    WorkflowRegistry registry =
        base()
            .orchestration(
                "CallsUnknown",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.callActivity("NoSuchActivity", in, String.class).await())
            .build();
    runtime(registry, b -> b.maxAttempts(2).unregisteredBackoff(FAST).meterRegistry(meters));
    catchAllActivityWorker("NoSuchActivity"); // the runtime leaves an activity it lacks to others

    String a = client().start(StartRequest.of("Unknown", "x")).instanceId();
    String b = client().start(StartRequest.of("CallsUnknown", "x")).instanceId();
    client().await(a, WAIT);
    client().await(b, WAIT);

    assertThat(meters.counter("redrive.workflow.poisoned", "level", "orchestration").count())
        .isGreaterThanOrEqualTo(1);
    assertThat(meters.counter("redrive.workflow.poisoned", "level", "activity").count())
        .isGreaterThanOrEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d25_unreadableHistory_bouncesThenPoisonsWithoutTouchingTheRow(StoreKind kind) {
    redrive(kind);
    WorkflowRegistry registry =
        base()
            .orchestration(
                "Waits",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> ctx.waitForEvent("go", String.class).await())
            .build();
    WorkflowRuntime first = runtime(registry);
    String id = client().start(StartRequest.of("Waits", "x")).instanceId();
    await()
        .atMost(WAIT)
        .until(() -> client().get(id).orElseThrow().status() == InstanceStatus.RUNNING);
    first.stop(WAIT);
    withConnection(c -> TestHooks.corruptHistoryEvent(c, id, 1, 1));
    runtime(registry, b -> b.maxAttempts(2));

    client().raiseEvent(id, "go", "now", null);

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().target()).isEqualTo(PoisonTarget.HISTORY_UNREADABLE);
    assertThat(info.failure().display())
        .startsWith(
            "poison: orchestration "
                + id
                + " history deserialization failed after 3"
                + " attempts (max 2): ");
    List<WorkflowEvent> history = client().history(id, 1);
    assertThat(history.get(0).data()).isEqualTo("{not json");
    assertThat(history.get(history.size() - 1).kind()).isEqualTo("ORCHESTRATION_FAILED");
    assertThat(history.get(history.size() - 1).eventId())
        .isEqualTo(history.get(history.size() - 2).eventId() + 1);
  }

  private static WorkflowRegistry shipping(String activity, Class<?> eventType) {
    return WorkflowRegistry.builder()
        .orchestration(
            "Ship",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.callActivity(activity, in, String.class).await();
              return String.valueOf(ctx.waitForEvent("go", eventType).await());
            })
        .activity("Pack", String.class, String.class, (ctx, in) -> in)
        .activity("Wrap", String.class, String.class, (ctx, in) -> in)
        .build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void nondeterminism_bouncedWithATurnRow_thenPoisonedWithTheMismatchAsLastAttempt(StoreKind kind) {
    redrive(kind);
    WorkflowRuntime old = runtime(shipping("Pack", String.class));
    String id = client().start(StartRequest.of("Ship", "x")).instanceId();
    await()
        .atMost(WAIT)
        .until(
            () ->
                client().history(id, 1).stream()
                    .anyMatch(e -> e.kind().equals("ACTIVITY_COMPLETED")));
    old.stop(WAIT);
    runtime(shipping("Wrap", String.class), b -> b.maxAttempts(2).unregisteredBackoff(FAST));

    client().raiseEvent(id, "go", "now", null);

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    String mismatch =
        "nondeterminism: "
            + id
            + " execution 1 command #1: history has ACTIVITY_SCHEDULED Pack,"
            + " code issued ACTIVITY_SCHEDULED Wrap";
    assertThat(info.failure().lastAttempt().message()).isEqualTo(mismatch);
    assertThat(info.failure().display())
        .isEqualTo(
            "poison: orchestration "
                + id
                + " exceeded 3 attempts (max 2); last attempt: NONDETERMINISM: "
                + mismatch.substring("nondeterminism: ".length()));
    assertThat(workflowStore().readTimeline(id))
        .filteredOn(t -> t.outcome().equals("NONDETERMINISM"))
        .hasSize(2)
        .allSatisfy(t -> assertThat(t.message()).isEqualTo(mismatch));
  }

  private static WorkflowRegistry twoEvents(Class<?> firstType) {
    return WorkflowRegistry.builder()
        .orchestration(
            "TwoEvents",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) ->
                ctx.waitForEvent("first", firstType).await()
                    + " "
                    + ctx.waitForEvent("second", String.class).await())
        .build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void recordedPayloadNoLongerDecodes_bouncesAsSerializationError(StoreKind kind) {
    redrive(kind);
    WorkflowRuntime old = runtime(twoEvents(String.class));
    String id = client().start(StartRequest.of("TwoEvents", "x")).instanceId();
    client().raiseEvent(id, "first", "not a number", null);
    await()
        .atMost(WAIT)
        .until(
            () -> client().history(id, 1).stream().anyMatch(e -> e.kind().equals("EVENT_RAISED")));
    old.stop(WAIT);
    // The first event's type changed under a history that holds a text payload.
    runtime(twoEvents(Integer.class), b -> b.maxAttempts(2).unregisteredBackoff(FAST));

    client().raiseEvent(id, "second", "now", null);

    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    assertThat(info.failure().lastAttempt().message()).contains("does not decode");
    assertThat(info.failure().lastAttempt().reason()).isEqualTo("SERIALIZATION_ERROR");
    assertThat(workflowStore().readTimeline(id))
        .extracting(t -> t.reason())
        .contains("SERIALIZATION_ERROR");
  }
}
