package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.retry.UnregisteredHandlerBackoff;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Orchestrations run end to end by a runtime on a real store, on both stores. */
class WorkflowRuntimeTest extends RuntimeHarness {

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activity_completes_orchestrationReturnsItsResult(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "greet",
                "1.0.0",
                String.class,
                String.class,
                (ctx, name) -> ctx.callActivity("hello", name, String.class).await() + "!")
            .activity("hello", String.class, String.class, (ctx, name) -> "hello, " + name)
            .build();
    WorkflowClient client = runtime(registry).client();

    String id = client.start(StartRequest.of("greet", "ada")).instanceId();

    assertThat(client.awaitResult(id, WAIT, String.class)).isEqualTo("hello, ada!");
    InstanceInfo info = client.get(id).orElseThrow();
    assertThat(info.status()).isEqualTo(InstanceStatus.COMPLETED);
    assertThat(info.version()).isEqualTo("1.0.0");
    assertThat(client.history(id, 1))
        .extracting(WorkflowEvent::kind)
        .containsExactly(
            "ORCHESTRATION_STARTED",
            "TURN_STARTED",
            "ACTIVITY_SCHEDULED",
            "TURN_STARTED",
            "ACTIVITY_COMPLETED",
            "ORCHESTRATION_COMPLETED");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activityThrows_codeCatchesIt_completes(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "careful",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  try {
                    return ctx.callActivity("boom", in, String.class).await();
                  } catch (ActivityFailedException e) {
                    return "caught " + e.failure().reason() + ": " + e.failure().message();
                  }
                })
            .activity(
                "boom",
                String.class,
                String.class,
                (ctx, in) -> {
                  throw new IllegalStateException("no " + in);
                })
            .build();
    WorkflowClient client = runtime(registry).client();

    String id = client.start(StartRequest.of("careful", "cheese")).instanceId();

    assertThat(client.awaitResult(id, WAIT, String.class))
        .isEqualTo("caught HANDLER_EXCEPTION: java.lang.IllegalStateException: no cheese");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void timerAndEvent_eventRaised_orchestrationTakesIt(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "approval",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  ctx.createTimer(Duration.ofMillis(100)).await();
                  ctx.setStatus("waiting for approval");
                  Optional<String> by = ctx.waitForEvent("approve", String.class, WAIT).await();
                  return in + " approved by " + by.orElse("nobody");
                })
            .build();
    WorkflowClient client = runtime(registry).client();
    String id = client.start(StartRequest.of("approval", "order-7")).instanceId();

    assertThat(client.raiseEvent(id, "approve", "grace", null)).isTrue();

    assertThat(client.awaitResult(id, WAIT, String.class)).isEqualTo("order-7 approved by grace");
    assertThat(client.get(id).orElseThrow().customStatus()).isEqualTo("\"waiting for approval\"");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void subOrchestration_childCompletes_parentGetsItsOutput(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "parent",
                "1.0.0",
                Integer.class,
                Integer.class,
                (ctx, n) -> ctx.callSubOrchestration("child", n, Integer.class).await() + 1)
            .orchestration(
                "child",
                "1.0.0",
                Integer.class,
                Integer.class,
                (ctx, n) -> ctx.callActivity("double", n, Integer.class).await())
            .activity("double", Integer.class, Integer.class, (ctx, n) -> n * 2)
            .build();
    WorkflowClient client = runtime(registry).client();

    String id = client.start(StartRequest.of("parent", 20)).instanceId();

    assertThat(client.awaitResult(id, WAIT, Integer.class)).isEqualTo(41);
    InstanceInfo child = client.get(id + "::sub::1").orElseThrow();
    assertThat(child.status()).isEqualTo(InstanceStatus.COMPLETED);
    assertThat(child.parentId()).isEqualTo(id);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void continueAsNew_loops_executionsCountUp(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "counter",
                "1.0.0",
                Integer.class,
                Integer.class,
                (ctx, n) -> n >= 5 ? n * 100 + ctx.executionId() : ctx.continueAsNew(n + 1))
            .build();
    WorkflowClient client = runtime(registry).client();

    String id = client.start(StartRequest.of("counter", 1)).instanceId();

    assertThat(client.awaitResult(id, WAIT, Integer.class)).isEqualTo(505);
    assertThat(client.get(id).orElseThrow().executionId()).isEqualTo(5);
    assertThat(client.history(id, 1)).extracting(WorkflowEvent::kind).endsWith("CONTINUED_AS_NEW");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void unregisteredOrchestration_bouncesThenPoisons(StoreKind kind) {
    redrive(kind);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration("known", "1.0.0", String.class, String.class, (ctx, in) -> in)
            .build();
    WorkflowClient client =
        runtime(
                registry,
                b ->
                    b.maxAttempts(3)
                        .unregisteredBackoff(
                            new UnregisteredHandlerBackoff(
                                Duration.ofMillis(10), 6, Duration.ofMillis(50))))
            .client();

    String unknown = client.start(StartRequest.of("unknown", "x")).instanceId();
    String badVersion =
        client.start(StartRequest.of("known", "x").withVersion("9.9.9")).instanceId();

    for (String id : List.of(unknown, badVersion)) {
      InstanceInfo info = client.await(id, WAIT);
      assertThat(info.status()).as(id).isEqualTo(InstanceStatus.FAILED);
      assertThat(info.failure().reason()).isEqualTo("POISON");
      assertThat(info.failure().target()).isEqualTo(PoisonTarget.ORCHESTRATION);
      assertThat(info.failure().attempt()).isEqualTo(4);
      assertThat(info.failure().maxAttempts()).isEqualTo(3);
      String code = id.equals(unknown) ? "unknown@(no version)" : "known@9.9.9";
      assertThat(info.failure().display())
          .isEqualTo(
              "poison: orchestration "
                  + id
                  + " exceeded 4 attempts (max 3); last attempt: UNREGISTERED: orchestration "
                  + code
                  + " is not registered on node node-1");
      assertThat(info.failure().lastAttempt().reason()).isEqualTo("UNREGISTERED");
      assertThat(client.history(id, 1))
          .extracting(WorkflowEvent::kind)
          .containsExactly("ORCHESTRATION_STARTED", "TURN_STARTED", "ORCHESTRATION_FAILED");
    }
    assertThatThrownBy(() -> client.awaitResult(unknown, WAIT, String.class))
        .isInstanceOf(WorkflowFailedException.class)
        .hasMessageContaining("exceeded 4 attempts");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void terminate_waitingInstance_endsTerminated(StoreKind kind) {
    redrive(kind);
    AtomicInteger runs = new AtomicInteger();
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration(
                "waiter",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  runs.incrementAndGet();
                  return ctx.waitForEvent("never", String.class).await();
                })
            .build();
    WorkflowClient client = runtime(registry).client();
    String id = client.start(StartRequest.of("waiter", "x")).instanceId();
    org.awaitility.Awaitility.await()
        .atMost(WAIT)
        .until(() -> client.get(id).orElseThrow().status() == InstanceStatus.RUNNING);

    client.terminate(id, "changed my mind");

    InstanceInfo info = client.await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.TERMINATED);
    assertThat(info.failure().message()).isEqualTo("changed my mind");
    assertThat(client.history(id, 1))
        .extracting(WorkflowEvent::kind)
        .endsWith("ORCHESTRATION_TERMINATED");
  }
}
