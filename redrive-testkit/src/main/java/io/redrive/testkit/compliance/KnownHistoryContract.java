package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.KnownHistory;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceParams.IfExists;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A lease offered the node's own copy of a history (docs/workflows.md, "History cache"), run
 * unchanged on every store: the store takes the copy only when it matches the leased instance's
 * counters (events and bytes of the current execution), and reads the stored rows otherwise, so a
 * stale or damaged copy can never reach a turn.
 */
public abstract class KnownHistoryContract extends ComplianceTestBase {
  private static final String ID = "order-7";
  private static final String NAME = "ship-order";
  private static final String INPUT = "{\"order\":7}";
  private static final Duration TURN_LEASE = Duration.ofSeconds(15);

  private List<HistoryRow> committed;

  private WorkflowStore workflows() {
    return (WorkflowStore) store;
  }

  /** {@link #ID} after one committed turn of two events, due again (an event raised for it). */
  @BeforeEach
  void oneCommittedTurn() {
    workflows()
        .startInstance(new StartInstanceParams(ID, NAME, null, INPUT, null, IfExists.FAIL, now()));
    TurnLease first = lease(KnownHistory.NONE);
    committed =
        List.of(
            new HistoryRow(1, 1, "ORCHESTRATION_STARTED", null, null, "{\"name\":\"a\"}", 1, now()),
            new HistoryRow(1, 2, "TURN_STARTED", null, null, "{\"turn\":1}", 1, now()));
    workflows()
        .commitTurn(
            new CommitTurnParams(
                ID,
                first.token(),
                new InstanceUpdate(Status.RUNNING, 1, "1.0", INPUT, null, null, null),
                List.of(
                    new ExecutionRow(
                        1, NAME, "1.0", ExecutionRow.Status.RUNNING, INPUT, null, now(), null, 1)),
                committed,
                first.batch().stream().map(r -> r.seq()).toList(),
                List.of(new NewInboxRow(ID, null, "EVENT_RAISED", null, "go", "{}", now(), null)),
                List.of(),
                List.of(),
                now()));
  }

  private TurnLease lease(KnownHistory known) {
    TurnLease t =
        workflows()
            .leaseTurn(new LeaseTurnParams("node-1", TURN_LEASE, 100, now(), null, known))
            .orElseThrow(() -> new AssertionError("nothing leased"));
    assertThat(t.instance().id()).isEqualTo(ID);
    return t;
  }

  @Test
  void lease_matchingCopy_isTakenAsIs() {
    List<HistoryRow> copy = List.copyOf(committed);

    TurnLease t = lease(instance -> copy);

    assertThat(t.history()).as("the copy itself, not a read").isSameAs(copy);
  }

  @Test
  void lease_asksAboutTheLeasedInstanceWithItsCounters() {
    AtomicReference<InstanceRow> asked = new AtomicReference<>();

    lease(
        instance -> {
          asked.set(instance);
          return null;
        });

    assertThat(asked.get().id()).isEqualTo(ID);
    assertThat(asked.get().executionId()).isEqualTo(1);
    assertThat(asked.get().historyEvents()).isEqualTo(2);
    assertThat(asked.get().historyBytes())
        .isEqualTo("{\"name\":\"a\"}".length() + "{\"turn\":1}".length());
  }

  @Test
  void lease_noCopy_readsTheStoredRows() {
    TurnLease t = lease(instance -> null);

    assertThat(t.history()).containsExactlyElementsOf(committed);
  }

  @Test
  void lease_copyMissingAnEvent_readsTheStoredRows() {
    List<HistoryRow> shorter = List.of(committed.get(0));

    TurnLease t = lease(instance -> shorter);

    assertThat(t.history()).containsExactlyElementsOf(committed);
  }

  @Test
  void lease_copyWithOtherData_readsTheStoredRows() {
    List<HistoryRow> damaged = new ArrayList<>(committed);
    HistoryRow last = committed.get(1);
    damaged.set(
        1, new HistoryRow(1, 2, last.kind(), null, null, "{\"turn\":12}", last.turn(), last.at()));

    TurnLease t = lease(instance -> List.copyOf(damaged));

    assertThat(t.history()).containsExactlyElementsOf(committed);
  }

  @Test
  void lease_copyWithEventIdsOutOfPlace_readsTheStoredRows() {
    HistoryRow a = committed.get(0);
    HistoryRow b = committed.get(1);
    List<HistoryRow> shifted =
        List.of(
            new HistoryRow(1, 2, a.kind(), null, null, a.data(), a.turn(), a.at()),
            new HistoryRow(1, 3, b.kind(), null, null, b.data(), b.turn(), b.at()));

    TurnLease t = lease(instance -> shifted);

    assertThat(t.history()).containsExactlyElementsOf(committed);
  }
}
