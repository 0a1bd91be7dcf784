package io.redrive.workflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.WorkflowRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The workflow test environment's behaviour, run on SQLite and on PostgreSQL by the subclasses:
 * events, skipped time, each kind of stub, crashes, assertions, the explorer, and a start inside an
 * application's transaction.
 */
abstract class WorkflowTestEnvironmentContract {
  static final WorkflowTestEnvironment.Builder SETTINGS =
      WorkflowTestEnvironment.builder().maxAttempts(3);

  /** An order: charge, wait three days for "shipped", refund if it never comes; a reminder. */
  static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "order",
            "1.0.0",
            Integer.class,
            String.class,
            (ctx, cents) -> {
              String charge = ctx.callActivity("charge", cents, String.class).await();
              Optional<String> tracking =
                  ctx.waitForEvent("shipped", String.class, Duration.ofDays(3)).await();
              if (tracking.isEmpty()) {
                return ctx.callActivity("refund", charge, String.class).await();
              }
              return "shipped as " + tracking.get() + " after " + charge;
            })
        .orchestration(
            "reminder",
            "1.0.0",
            String.class,
            String.class,
            (ctx, who) -> {
              ctx.createTimer(Duration.ofDays(30)).await();
              return ctx.callActivity("remind", who, String.class).await();
            })
        .activity("charge", Integer.class, String.class, (ctx, cents) -> "charge of " + cents)
        .activity("refund", String.class, String.class, (ctx, charge) -> "refunded " + charge)
        .activity("remind", String.class, String.class, (ctx, who) -> "reminded " + who)
        .build();
  }

  /** A connection of the application's own to the engine's database, auto-commit off. */
  abstract Connection connect(WorkflowTestEnvironment env) throws SQLException;

  @Test
  void start_waitsForTheEvent_raisedEventCompletesIt(WorkflowTestEnvironment env) {
    String id = env.start("order", 4200);
    env.assertInstance(id).isStarted().hasStatus(InstanceStatus.RUNNING);

    env.raiseEvent(id, "shipped", "TRACK-9");

    env.assertInstance(id).isCompletedWith("shipped as TRACK-9 after charge of 4200");
  }

  @Test
  void skip_thirtyDays_firesTheTimerAtOnce(WorkflowTestEnvironment env) {
    String id = env.start("reminder", "ada");
    env.skip(Duration.ofDays(29));
    env.assertInstance(id).hasStatus(InstanceStatus.RUNNING);

    env.skip(Duration.ofDays(1));

    env.assertInstance(id).isCompletedWithJson("\"reminded ada\"");
    assertThat(env.calls("remind").count()).isEqualTo(1);
  }

  @Test
  void skip_pastTheEventTimeout_refunds(WorkflowTestEnvironment env) {
    String id = env.start("order", 100);
    env.skip(Duration.ofDays(3));
    env.assertInstance(id).isCompletedWith("refunded charge of 100");
  }

  @Test
  void stubReturning_replacesTheActivitysResult(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.returning("charge ch_1"));
    String id = env.start("order", 4200);
    env.raiseEvent(id, "shipped", "T");
    env.assertInstance(id).isCompletedWith("shipped as T after charge ch_1");
  }

  @Test
  void stubAnswering_isAFunctionOfTheInput(WorkflowTestEnvironment env) {
    env.stub(
        "charge", ActivityStub.answering((Integer cents) -> "charged " + cents / 100 + " EUR"));
    String id = env.start("order", 4200);
    env.raiseEvent(id, "shipped", "T");
    assertThat(env.assertInstance(id).output(String.class))
        .isEqualTo("shipped as T after charged 42 EUR");
    assertThat(env.calls("charge").inputs(Integer.class)).containsExactly(4200);
  }

  @Test
  void stubOf_seesTheActivityContext(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.of((ctx, cents) -> ctx.idempotencyKey() + "@" + ctx.attempt()));
    String id = env.start("order", 1);
    env.raiseEvent(id, "shipped", "T");
    env.assertInstance(id).isCompletedWith("shipped as T after " + id + "/1@1");
  }

  @Test
  void stubFailing_failsTheInstanceWithTheMessage(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.failing("card declined"));
    String id = env.start("order", 4200);
    env.runUntilEnded(id);

    env.assertInstance(id)
        .isFailedWithMessageContaining("card declined")
        .isFailedWithType(ActivityStubException.class);
    assertThat(env.calls("refund").count()).isZero();
  }

  @Test
  void stubFailingWithAnException_recordsItsType(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.failing(new IllegalStateException("bank down")));
    String id = env.start("order", 4200);
    env.runUntilEnded(id);
    env.assertInstance(id)
        .isFailedWithType(IllegalStateException.class)
        .isFailedWithMessageContaining("bank down");
  }

  @Test
  void crashOnAttemptOne_leaseRunsOut_andTheSecondDeliveryCompletes(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.registered().crashingOnAttempt(1));
    String id = env.start("order", 4200);
    env.assertInstance(id).hasStatus(InstanceStatus.RUNNING);
    assertThat(env.calls("charge").deliveries())
        .extracting(ActivityDelivery::crashed)
        .containsExactly(true);

    env.skip(Duration.ofSeconds(31)); // past the crashed delivery's 30 s lease
    env.raiseEvent(id, "shipped", "T");

    env.assertInstance(id).isCompletedWith("shipped as T after charge of 4200");
    assertThat(env.calls("charge").deliveries())
        .extracting(ActivityDelivery::attempt, ActivityDelivery::crashed)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, true),
            org.assertj.core.groups.Tuple.tuple(2, false));
  }

  @Test
  void crashOnEveryAttempt_isPoisonedAtMaxAttempts(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.returning("never").crashingOnEveryAttempt());
    String id = env.start("order", 4200);

    env.runUntilEnded(id);

    WorkflowFailure failure = env.assertInstance(id).isFailedWithReason("POISON").isFailed();
    assertThat(failure.display()).contains("activity charge#1").contains("max 3");
    assertThat(env.calls("charge").count()).isEqualTo(3);
  }

  @Test
  void calls_countEveryDeliveryWithItsInput(WorkflowTestEnvironment env) {
    String first = env.start("order", 1);
    String second = env.start("order", 2);
    assertThat(env.calls("charge").count()).isEqualTo(2);
    assertThat(env.calls("charge").inputs()).containsExactlyInAnyOrder(1, 2);
    assertThat(env.calls("charge").deliveries())
        .extracting(ActivityDelivery::instanceId)
        .containsExactlyInAnyOrder(first, second);
    assertThat(env.calls("refund").count()).isZero();
  }

  @Test
  void failedAssertion_tellsTheStory(WorkflowTestEnvironment env) {
    String id = env.start("order", 4200);
    assertThatThrownBy(() -> env.assertInstance(id).isCompletedWith("anything"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("but it is RUNNING")
        .hasMessageContaining("last timeline entries")
        .hasMessageContaining("ACTIVITY_COMPLETED");
    assertThatThrownBy(() -> env.assertInstance("nope").isStarted())
        .hasMessageContaining("there is none");
  }

  @Test
  void explore_runsWithTheEnvironmentsStubs(WorkflowTestEnvironment env) {
    env.stub("remind", ActivityStub.returning("stubbed"));
    ExplorationReport report = env.explore("reminder", "ada");
    assertThat(report.clean().output()).isEqualTo("\"stubbed\"");
    assertThat(report.differences()).as(report.toText()).isEmpty();
    assertThat(env.calls("remind").count()).isZero(); // the explorer's runs are its own
  }

  @Test
  void startInARolledBackTransaction_isNeverStarted(WorkflowTestEnvironment env) throws Exception {
    try (Connection c = connect(env)) {
      env.client().start(c, StartRequest.of("order", 1).withInstanceId("order-rolled-back"));
      c.rollback();
    }
    env.runUntilIdle();
    env.assertInstance("order-rolled-back").isNotStarted();
    assertThat(env.calls("charge").count()).isZero();
  }

  @Test
  void startInACommittedTransaction_runs(WorkflowTestEnvironment env) throws Exception {
    try (Connection c = connect(env)) {
      env.client().start(c, StartRequest.of("order", 7).withInstanceId("order-committed"));
      c.commit();
    }
    env.runUntilIdle();
    env.assertInstance("order-committed").hasStatus(InstanceStatus.RUNNING);
    assertThat(env.calls("charge").inputs()).containsExactly(7);
  }

  @Test
  void reset_forgetsInstancesStubsAndCalls(WorkflowTestEnvironment env) {
    env.stub("charge", ActivityStub.returning("stubbed"));
    String id = env.start("order", 1);

    env.redrive().reset();

    env.assertInstance(id).isNotStarted();
    assertThat(env.calls("charge").count()).isZero();
    String again = env.start("order", 2);
    env.raiseEvent(again, "shipped", "T");
    env.assertInstance(again).isCompletedWith("shipped as T after charge of 2");
  }

  @Test
  void stub_ofAnUnregisteredActivity_isRefusedNamingIt(WorkflowTestEnvironment env) {
    assertThatThrownBy(() -> env.stub("chrage", ActivityStub.returning(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"chrage\" is not registered")
        .hasMessageContaining("charge");
  }
}
