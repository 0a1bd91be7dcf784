package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redrive.testkit.ControllableClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A workflow that fails because no handler exists, no node has its code, or a result does not
 * decode says so in the failure users see (docs/workflows.md, "What happens when things fail"): the
 * poison's display, and so {@link WorkflowFailedException}'s message, ends with the last attempt's
 * reason and message, and {@code lastAttempt} holds that try. On both stores.
 */
class FailureCauseTest extends RuntimeHarness {

  private static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "CallsMissing",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> ctx.callActivity("b", in, String.class).await())
        .orchestration(
            "AsksNumber",
            "1.0.0",
            String.class,
            Integer.class,
            (ctx, in) -> ctx.callActivity("Text", in, Integer.class).await())
        .orchestration(
            "ChildNumber",
            "1.0.0",
            String.class,
            Integer.class,
            (ctx, in) -> ctx.callSubOrchestration("TextChild", in, Integer.class).await())
        .orchestration("TextChild", "1.0.0", String.class, String.class, (ctx, in) -> "text")
        .orchestration(
            "EventNumber",
            "1.0.0",
            String.class,
            Integer.class,
            (ctx, in) -> ctx.waitForEvent("go", Integer.class).await())
        .activity("Text", String.class, String.class, (ctx, in) -> "not a number")
        .build();
  }

  private WorkflowFailure failureOf(String id) {
    InstanceInfo info = client().await(id, WAIT);
    assertThat(info.status()).isEqualTo(InstanceStatus.FAILED);
    return info.failure();
  }

  /** What a client awaiting the result is told. */
  private String thrownMessage(String id) {
    Throwable[] thrown = new Throwable[1];
    assertThatThrownBy(() -> client().awaitResult(id, Duration.ofSeconds(1), Object.class))
        .isInstanceOf(WorkflowFailedException.class)
        .satisfies(t -> thrown[0] = t);
    return thrown[0].getMessage();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activityNoWorkerHandles_poisonNamesTheUnregisteredHandler(StoreKind kind) {
    redrive(kind);
    runtime(registry(), b -> b.maxAttempts(3).unregisteredBackoff(FAST));
    catchAllActivityWorker("b"); // leases "b", has no handler for it, bounces it

    String id = client().start(StartRequest.of("CallsMissing", "x")).instanceId();

    WorkflowFailure f = failureOf(id);
    String cause =
        "poison: activity b#1 exceeded 4 attempts (max 3); last attempt: UNREGISTERED_HANDLER:"
            + " no handler for type b on worker catch-all";
    assertThat(f.reason()).isEqualTo("POISON");
    assertThat(f.display()).startsWith(cause);
    assertThat(f.message()).startsWith(cause);
    assertThat(f.lastAttempt().reason()).isEqualTo("UNREGISTERED_HANDLER");
    assertThat(f.lastAttempt().category()).isEqualTo("configuration");
    assertThat(f.lastAttempt().attempt()).isEqualTo(3);
    assertThat(f.lastAttempt().maxAttempts()).isEqualTo(3);
    assertThat(f.lastAttempt().activityName()).isEqualTo("b");
    assertThat(f.lastAttempt().activityId()).isEqualTo(1);
    assertThat(f.lastAttempt().display()).startsWith("UNREGISTERED_HANDLER on catch-all: ");
    assertThat(thrownMessage(id)).startsWith(cause);
    List<WorkflowEvent> history = client().history(id, 1);
    assertThat(history.get(history.size() - 1).data()).contains(cause);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void activityResultDoesNotDecode_poisonNamesTheSerializationError(StoreKind kind) {
    redrive(kind);
    runtime(registry(), b -> b.maxAttempts(2).unregisteredBackoff(FAST));

    String id = client().start(StartRequest.of("AsksNumber", "x")).instanceId();

    WorkflowFailure f = failureOf(id);
    String cause =
        "poison: orchestration "
            + id
            + " exceeded 3 attempts (max 2); last attempt: SERIALIZATION_ERROR: activity Text#1"
            + " result does not decode as java.lang.Integer: Cannot deserialize value of type"
            + " `java.lang.Integer` from String \"not a number\"";
    assertThat(f.display()).startsWith(cause).doesNotContain("\n");
    assertThat(f.lastAttempt().reason()).isEqualTo("SERIALIZATION_ERROR");
    assertThat(f.lastAttempt().category()).isEqualTo("nondeterminism");
    assertThat(thrownMessage(id)).startsWith(cause);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void childResultDoesNotDecode_poisonNamesTheChildCall(StoreKind kind) {
    redrive(kind);
    runtime(registry(), b -> b.maxAttempts(2).unregisteredBackoff(FAST));

    String id = client().start(StartRequest.of("ChildNumber", "x")).instanceId();

    assertThat(failureOf(id).display())
        .contains(
            "; last attempt: SERIALIZATION_ERROR: sub-orchestration TextChild#1 result does not"
                + " decode as java.lang.Integer: ");
    assertThat(thrownMessage(id)).contains("TextChild#1 result does not decode");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void eventPayloadDoesNotDecode_poisonNamesTheEvent(StoreKind kind) {
    redrive(kind);
    runtime(registry(), b -> b.maxAttempts(2).unregisteredBackoff(FAST));
    String id = client().start(StartRequest.of("EventNumber", "x")).instanceId();

    client().raiseEvent(id, "go", "abc", null);

    assertThat(failureOf(id).display())
        .contains(
            "; last attempt: SERIALIZATION_ERROR: event go payload does not decode as"
                + " java.lang.Integer: ");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void orchestrationNoNodeHas_waitingSaysSo_thenPoisonNamesIt(StoreKind kind) {
    ControllableClock clock = ControllableClock.startingAtEpochOfTests();
    redrive(kind, clock);
    runtime(registry(), b -> b.maxAttempts(2).nodeId("node-u"));
    String id = client().start(StartRequest.of("Nowhere", "x")).instanceId();
    String unregistered = "orchestration Nowhere@(no version) is not registered on node node-u";

    await().atMost(WAIT).until(() -> workflowStore().readTimeline(id).size() == 1);
    InstanceDetail.Waiting waiting = client().inspect(id).orElseThrow().waiting();
    assertThat(waiting.reason()).isEqualTo("UNREGISTERED");
    assertThat(waiting.message()).isEqualTo(unregistered);
    assertThat(waiting.attempt()).isEqualTo(1);
    assertThat(waiting.until()).isEqualTo(clock.instant().plusSeconds(1));
    assertThat(waiting.node()).isEqualTo("node-u");
    clock.advance(Duration.ofSeconds(1));
    await().atMost(WAIT).until(() -> workflowStore().readTimeline(id).size() == 2);
    clock.advance(Duration.ofSeconds(2));

    WorkflowFailure f = failureOf(id);
    assertThat(f.display())
        .isEqualTo(
            "poison: orchestration "
                + id
                + " exceeded 3 attempts (max 2); last attempt: UNREGISTERED: "
                + unregistered);
    assertThat(f.lastAttempt().category()).isEqualTo("configuration");
    assertThat(thrownMessage(id)).endsWith("last attempt: UNREGISTERED: " + unregistered);
  }
}
