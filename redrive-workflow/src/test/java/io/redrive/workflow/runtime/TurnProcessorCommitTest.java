package io.redrive.workflow.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.error.StoreException;
import io.redrive.error.TurnLostException;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.store.workflow.AbandonTurnParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.replay.Payloads;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What a turn does when its commit fails (docs/workflows.md, failure table): a transient store
 * failure is retried three times, then the turn is abandoned as COMMIT_FAILED (counted); a lost
 * lease drops the turn; a permanent failure abandons at once. A store stand-in that fails on
 * command: the real stores' atomicity under such failures is the compliance suite's.
 */
class TurnProcessorCommitTest {
  private static final Instant NOW = Instant.parse("2026-11-27T00:00:00Z");

  private final AtomicInteger commits = new AtomicInteger();
  private final List<AbandonTurnParams> abandons = new ArrayList<>();

  private WorkflowStore failingCommits(Supplier<RuntimeException> failure, int failures) {
    return (WorkflowStore)
        Proxy.newProxyInstance(
            WorkflowStore.class.getClassLoader(),
            new Class<?>[] {WorkflowStore.class},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "commitTurn" -> {
                  assertThat(args[0]).isInstanceOf(CommitTurnParams.class);
                  if (commits.incrementAndGet() <= failures) {
                    throw failure.get();
                  }
                  return null;
                }
                case "abandonTurn" -> {
                  abandons.add((AbandonTurnParams) args[0]);
                  return null;
                }
                default -> throw new UnsupportedOperationException(method.getName());
              }
            });
  }

  private static TurnProcessor processor(WorkflowStore store) {
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .orchestration("Echo", "1.0.0", String.class, String.class, (ctx, in) -> in)
            .build();
    RuntimeSettings settings =
        new RuntimeSettings(
            "node-1",
            null,
            10,
            2,
            UnregisteredHandlerBackoff.DEFAULT,
            Duration.ofSeconds(15),
            Duration.ofSeconds(60),
            Duration.ofSeconds(30),
            1,
            1,
            Set.of(ActivityOptions.DEFAULT_QUEUE),
            500,
            10_000,
            1 << 24,
            Duration.ofSeconds(1),
            true,
            true,
            0,
            Duration.ZERO);
    Orchestration<Object, Object> echo = (ctx, in) -> in;
    OrchestrationCode.Lookup code =
        (name, version) ->
            "Echo".equals(name) && "1.0.0".equals(version)
                ? Optional.of(new OrchestrationCode(echo, String.class))
                : Optional.empty();
    return new TurnProcessor(
        store,
        Clock.fixed(NOW, ZoneOffset.UTC),
        registry,
        code,
        new Payloads(new ObjectMapper(), 1 << 20),
        settings,
        new WorkflowMetrics(null));
  }

  private static TurnLease firstTurn() {
    InstanceRow instance =
        new InstanceRow(
            "i-1",
            "Echo",
            null,
            null,
            InstanceRow.Status.PENDING,
            1,
            null,
            "i-1",
            "\"x\"",
            null,
            null,
            null,
            NOW,
            NOW,
            null,
            null,
            1,
            "node-1",
            NOW.plusSeconds(15),
            0,
            0,
            null,
            null,
            null);
    InboxRow start = new InboxRow(1, null, "START", null, "Echo", "\"x\"", NOW, NOW);
    return new TurnLease(instance, "token-1", 1, List.of(start), List.of(), List.of());
  }

  private static StoreException transientFailure() {
    return new StoreException("connection reset", "08006", true, null);
  }

  @Test
  void commit_twoTransientFailures_retriedAndCommitted() {
    processor(failingCommits(TurnProcessorCommitTest::transientFailure, 2)).process(firstTurn());

    assertThat(commits).hasValue(3);
    assertThat(abandons).isEmpty();
  }

  @Test
  void commit_transientFailuresPastThreeRetries_abandonedAsCommitFailed() {
    processor(failingCommits(TurnProcessorCommitTest::transientFailure, 99)).process(firstTurn());

    assertThat(commits).as("the try and three retries").hasValue(4);
    assertThat(abandons)
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.outcome()).isEqualTo("COMMIT_FAILED");
              assertThat(a.delay()).isEqualTo(Duration.ofSeconds(1));
              assertThat(a.refund()).as("counted").isFalse();
            });
  }

  @Test
  void commit_permanentFailure_abandonedAtOnce() {
    processor(failingCommits(() -> new StoreException("value too long", "22001", false, null), 99))
        .process(firstTurn());

    assertThat(commits).hasValue(1);
    assertThat(abandons)
        .singleElement()
        .extracting(AbandonTurnParams::outcome)
        .isEqualTo("COMMIT_FAILED");
  }

  @Test
  void commit_leaseLost_turnDroppedWithoutAbandon() {
    processor(failingCommits(() -> new TurnLostException("i-1"), 99)).process(firstTurn());

    assertThat(commits).hasValue(1);
    assertThat(abandons).isEmpty();
  }
}
