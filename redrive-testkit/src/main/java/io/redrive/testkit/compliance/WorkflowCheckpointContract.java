package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.TurnLostException;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceParams.IfExists;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.TurnRow;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Checkpoints (docs/workflows.md, "Local and queued activities"): a commit that keeps its turn's
 * lease, so the turn runs its local activities and commits again under the same token. Run
 * unchanged on every store.
 */
public abstract class WorkflowCheckpointContract extends ComplianceTestBase {
  private static final String ID = "order-7";
  private static final String INPUT = "{\"order\":7}";
  private static final Duration TURN_LEASE = Duration.ofSeconds(15);
  private static final String WAKE_KEY = "checkpoint";

  private WorkflowStore workflows() {
    return (WorkflowStore) store;
  }

  private void start(String id) {
    workflows()
        .startInstance(
            new StartInstanceParams(id, "ship", null, INPUT, null, IfExists.FAIL, now()));
  }

  private Optional<TurnLease> lease(String node) {
    return workflows().leaseTurn(new LeaseTurnParams(node, TURN_LEASE, 100, now()));
  }

  /** A turn that appends {@code events} events and, as a checkpoint, writes its wake row. */
  private CommitTurnParams turn(
      TurnLease t, String token, int from, int events, Duration keepLease, List<String> keys) {
    List<HistoryRow> rows = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      rows.add(new HistoryRow(1, from + i, "APPLIED", null, null, "{\"n\":" + i + "}", 1, now()));
    }
    List<NewInboxRow> inserts =
        keepLease == null
            ? List.of()
            : List.of(new NewInboxRow(ID, null, "CHECKPOINT", null, null, null, now(), WAKE_KEY));
    return new CommitTurnParams(
        ID,
        token,
        new InstanceUpdate(Status.RUNNING, 1, "1.0", INPUT, null, null, null),
        from == 1
            ? List.of(
                new ExecutionRow(
                    1, "ship", "1.0", ExecutionRow.Status.RUNNING, INPUT, null, now(), null, 1))
            : List.of(),
        rows,
        t.batch().stream().map(InboxRow::seq).toList(),
        inserts,
        List.of(),
        List.of(),
        now(),
        keepLease,
        keys);
  }

  @Test
  void checkpoint_keepsTheLease_andTheSameTokenCommitsAgain() {
    start(ID);
    TurnLease t = lease("node-1").orElseThrow();

    workflows().commitTurn(turn(t, t.token(), 1, 2, TURN_LEASE, List.of()));
    InstanceRow held = workflows().findInstance(ID).orElseThrow();
    assertThat(held.leasedBy()).isEqualTo("node-1");
    assertThat(held.turnAttempt()).as("the try still counts").isEqualTo(1);
    assertThat(held.leaseExpiresAt()).isEqualTo(now().plus(TURN_LEASE));
    assertThat(workflows().readHistory(ID, 1)).hasSize(2);
    assertThat(workflows().readInbox(ID)).extracting(InboxRow::kind).containsExactly("CHECKPOINT");

    advance(Duration.ofSeconds(10));
    TurnLease again = new TurnLease(held, t.token(), 1, List.of(), List.of(), List.of());
    workflows().commitTurn(turn(again, t.token(), 3, 1, TURN_LEASE, List.of()));
    assertThat(workflows().findInstance(ID).orElseThrow().leaseExpiresAt())
        .as("pushed from the checkpoint's now")
        .isEqualTo(now().plus(TURN_LEASE));

    workflows().commitTurn(turn(again, t.token(), 4, 1, null, List.of(WAKE_KEY)));
    InstanceRow done = workflows().findInstance(ID).orElseThrow();
    assertThat(done.leasedBy()).isNull();
    assertThat(done.leaseExpiresAt()).isNull();
    assertThat(done.turnAttempt()).isZero();
    assertThat(done.historyEvents()).isEqualTo(4);
    assertThat(workflows().readHistory(ID, 1))
        .extracting(HistoryRow::eventId)
        .containsExactly(1, 2, 3, 4);
    assertThat(workflows().readInbox(ID)).as("the wake row deleted by its key").isEmpty();
  }

  @Test
  void checkpoint_anotherLeaseDoesNotGetTheInstance_evenWithAVisibleRow() {
    start(ID);
    TurnLease t = lease("node-1").orElseThrow();
    workflows().commitTurn(turn(t, t.token(), 1, 2, TURN_LEASE, List.of()));

    advance(Duration.ofSeconds(14));
    assertThat(lease("node-2")).isEmpty();
    assertThat(workflows().nextDueAt(now()))
        .as("due when the kept lease runs out, not now")
        .contains(now().plus(Duration.ofSeconds(1)));
  }

  @Test
  void checkpoint_thenTheLeaseRunsOut_theNextLeaseCountsTwo() {
    start(ID);
    Instant leasedAt = now();
    TurnLease t = lease("node-1").orElseThrow();
    workflows().commitTurn(turn(t, t.token(), 1, 2, TURN_LEASE, List.of()));

    advance(TURN_LEASE);
    TurnLease next = lease("node-2").orElseThrow();
    assertThat(next.attempt()).as("the crashed try after the checkpoint counted").isEqualTo(2);
    assertThat(next.turns())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo("LEASE_EXPIRED");
              assertThat(r.node()).isEqualTo("node-1");
              assertThat(r.attempt()).isEqualTo(1);
              assertThat(r.leasedAt()).isEqualTo(leasedAt);
              // The checkpoint kept the lease for another TURN_LEASE from its commit.
              assertThat(r.endedAt()).isEqualTo(leasedAt.plus(TURN_LEASE));
              assertThat(r.reason()).isNull();
              assertThat(r.message()).isEqualTo("the turn lease of node-1 ran out");
            });
    assertThat(next.history()).hasSize(2);
    assertThat(next.batch()).extracting(InboxRow::kind).containsExactly("CHECKPOINT");
    assertThatThrownBy(
            () -> workflows().commitTurn(turn(next, t.token(), 3, 1, TURN_LEASE, List.of())))
        .as("the old token is gone")
        .isInstanceOf(TurnLostException.class);
  }

  @Test
  void checkpoint_withAWrongToken_isLeaseLostAndWritesNothing() {
    start(ID);
    TurnLease t = lease("node-1").orElseThrow();

    assertThatThrownBy(() -> workflows().commitTurn(turn(t, "not-it", 1, 2, TURN_LEASE, List.of())))
        .isInstanceOf(TurnLostException.class);

    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.status()).isEqualTo(Status.PENDING);
    assertThat(i.leaseExpiresAt()).isEqualTo(t.instance().leaseExpiresAt());
    assertThat(workflows().readHistory(ID, 1)).isEmpty();
    assertThat(workflows().readInbox(ID)).extracting(InboxRow::kind).containsExactly("START");
    workflows().commitTurn(turn(t, t.token(), 1, 2, null, List.of()));
    assertThat(workflows().findInstance(ID).orElseThrow().leasedBy()).isNull();
  }

  @Test
  void checkpoint_doesNotCountTheTurnRowsAgain() {
    start(ID);
    TurnLease t = lease("node-1").orElseThrow();
    workflows().commitTurn(turn(t, t.token(), 1, 2, TURN_LEASE, List.of()));
    advance(TURN_LEASE);
    TurnLease second = lease("node-2").orElseThrow();
    workflows().commitTurn(turn(second, second.token(), 3, 1, TURN_LEASE, List.of()));

    advance(TURN_LEASE);
    TurnLease third = lease("node-3").orElseThrow();
    assertThat(third.turns())
        .as("only the tries since the last checkpoint")
        .extracting(TurnRow::node)
        .containsExactly("node-2");
    assertThat(third.attempt()).isEqualTo(2);
  }

  @Test
  void commit_manyEventsWithAwkwardText_readBackExactly_andAGapWritesNothing() {
    start(ID);
    TurnLease t = lease("node-1").orElseThrow();
    String awkward = "{\"q\":\"a \\\"quoted\\\" {x,y} \\\\ NULL \u00e9\u4e2d\"}";
    List<HistoryRow> rows =
        List.of(
            new HistoryRow(1, 1, "ORCHESTRATION_STARTED", null, null, "{}", 1, now()),
            new HistoryRow(1, 2, "ACTIVITY_SCHEDULED", 7L, "a,b{c}", awkward, 1, now()),
            new HistoryRow(1, 3, "TIMER_CREATED", 8L, "NULL", "\"NULL\"", 2, now()));
    CommitTurnParams p = turn(t, t.token(), 1, 0, null, List.of());
    CommitTurnParams gap =
        new CommitTurnParams(
            ID,
            t.token(),
            p.instance(),
            p.executions(),
            List.of(new HistoryRow(1, 2, "X", null, null, "{}", 1, now())),
            p.inboxDeletes(),
            List.of(),
            List.of(),
            List.of(),
            now());

    assertThatThrownBy(() -> workflows().commitTurn(gap))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the next must be 1");
    assertThat(workflows().readHistory(ID, 1)).isEmpty();

    workflows()
        .commitTurn(
            new CommitTurnParams(
                ID,
                t.token(),
                p.instance(),
                p.executions(),
                rows,
                p.inboxDeletes(),
                List.of(),
                List.of(),
                List.of(),
                now()));
    assertThat(workflows().readHistory(ID, 1)).containsExactlyElementsOf(rows);
    assertThat(workflows().findInstance(ID).orElseThrow().historyEvents()).isEqualTo(3);
  }
}
