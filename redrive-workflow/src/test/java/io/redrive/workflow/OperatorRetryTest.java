package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.ConflictException;
import io.redrive.worker.Worker;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An operator's retry of a system failure (docs/workflows.md, "Retry of a failed instance"): the
 * failure is voided, what was poisoned is put back, and the instance goes on once the code is
 * there, without running completed work again.
 */
class OperatorRetryTest extends RuntimeHarness {
  private final AtomicInteger reserveRuns = new AtomicInteger();

  private WorkflowRegistry registry(boolean withLateCode) {
    WorkflowRegistry.Builder b =
        WorkflowRegistry.builder()
            .orchestration(
                "Order",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  String r = ctx.callActivity("Reserve", in, String.class).await();
                  return ctx.callActivity("Ship", r, String.class).await();
                })
            .orchestration(
                "Parent",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) ->
                    "parent of " + ctx.callSubOrchestration("Late", in, String.class).await())
            .orchestration(
                "Throws",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  throw new IllegalArgumentException("bad order " + in);
                })
            .activity(
                "Reserve",
                String.class,
                String.class,
                (ctx, in) -> {
                  reserveRuns.incrementAndGet();
                  return in + " reserved";
                });
    if (withLateCode) {
      b.orchestration("Late", "1.0.0", String.class, String.class, (ctx, in) -> "late " + in)
          .activity("Ship", String.class, String.class, (ctx, in) -> in + " shipped");
    }
    return b.build();
  }

  private WorkflowRuntime oldNode() {
    return runtime(registry(false), b -> b.maxAttempts(2).unregisteredBackoff(FAST));
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void retry_orchestrationPoisonedUnregistered_runsOnceTheCodeIsThere(StoreKind kind)
      throws Exception {
    redrive(kind);
    WorkflowRuntime old = oldNode();
    String id = client().start(StartRequest.of("Late", "x")).instanceId();
    assertThat(client().await(id, WAIT).status()).isEqualTo(InstanceStatus.FAILED);
    old.stop(WAIT);
    runtime(registry(true), b -> b.maxAttempts(2).unregisteredBackoff(FAST));

    InstanceInfo retried = client().retry(id, "deployed Late");

    assertThat(retried.status()).isIn(InstanceStatus.RUNNING, InstanceStatus.COMPLETED);
    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("late x");
    assertThat(client().history(id, 1))
        .extracting(WorkflowEvent::kind)
        .containsSubsequence(
            "ORCHESTRATION_FAILED",
            "ORCHESTRATION_RETRIED",
            "TURN_STARTED",
            "ORCHESTRATION_COMPLETED");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void retry_activityPoisoned_deadMessageRetried_completedWorkNotRepeated(StoreKind kind)
      throws Exception {
    redrive(kind);
    WorkflowRuntime old = oldNode();
    // The runtime leaves an activity it lacks to others: a worker that leases every type bounces
    // it until it is poisoned, and is gone before the retry.
    Worker catchAll = catchAllActivityWorker("Ship");
    String id = client().start(StartRequest.of("Order", "book")).instanceId();
    InstanceInfo failed = client().await(id, WAIT);
    assertThat(failed.failure().target()).isEqualTo(PoisonTarget.ACTIVITY);
    catchAll.stop(WAIT);
    old.stop(WAIT);
    runtime(registry(true), b -> b.maxAttempts(2).unregisteredBackoff(FAST));

    client().retry(id, null);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("book reserved shipped");
    assertThat(reserveRuns).hasValue(1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void retry_childPoisoned_childRevivedFirst_bothComplete(StoreKind kind) throws Exception {
    redrive(kind);
    WorkflowRuntime old = oldNode();
    String id = client().start(StartRequest.of("Parent", "y")).instanceId();
    InstanceInfo failed = client().await(id, WAIT);
    assertThat(failed.failure().via()).containsExactly(id + "::sub::1");
    old.stop(WAIT);
    runtime(registry(true), b -> b.maxAttempts(2).unregisteredBackoff(FAST));

    client().retry(id, "child code deployed");

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("parent of late y");
    assertThat(client().get(id + "::sub::1").orElseThrow().status())
        .isEqualTo(InstanceStatus.COMPLETED);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void retry_applicationFailure_refusedNotRetryable(StoreKind kind) {
    redrive(kind);
    runtime(registry(true));
    String id = client().start(StartRequest.of("Throws", "z")).instanceId();
    assertThat(client().await(id, WAIT).failure().reason()).isEqualTo("ORCHESTRATION_EXCEPTION");

    assertThatThrownBy(() -> client().retry(id, null))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("ORCHESTRATION_EXCEPTION")
        .extracting(e -> ((ConflictException) e).code())
        .isEqualTo("NOT_RETRYABLE");
    assertThat(client().get(id).orElseThrow().status()).isEqualTo(InstanceStatus.FAILED);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void retry_runningInstance_refusedNotFailed(StoreKind kind) {
    redrive(kind);
    String id = client().start(StartRequest.of("Order", "z")).instanceId();

    assertThatThrownBy(() -> client().retry(id, null))
        .isInstanceOf(ConflictException.class)
        .extracting(e -> ((ConflictException) e).code())
        .isEqualTo("NOT_FAILED");
  }
}
