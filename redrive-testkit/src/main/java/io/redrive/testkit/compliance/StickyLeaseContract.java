package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.store.workflow.AbandonTurnParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.KnownHistory;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceParams.IfExists;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sticky turn leasing (docs/workflows.md, "History cache"), run unchanged on every store: after a
 * commit that names a sticky node, that node leases the instance's next turn at once; any other
 * node only once the waiting row has been visible for its {@code stickyWait}, so a node that died
 * strands nothing. A stop that lets go of the node's instances, an abandon and a commit that names
 * no node leave the instance to anyone at once.
 */
public abstract class StickyLeaseContract extends ComplianceTestBase {
  private static final String ID = "order-7";
  private static final String NAME = "ship-order";
  private static final String INPUT = "{\"order\":7}";
  private static final Duration TURN_LEASE = Duration.ofSeconds(15);
  private static final Duration WAIT = Duration.ofSeconds(5);

  private WorkflowStore workflows() {
    return (WorkflowStore) store;
  }

  /** {@link #ID} after one turn committed by node-a that sticks it there, due again. */
  @BeforeEach
  void committedByNodeA() {
    start(ID);
    commit(lease("node-a", Duration.ZERO).orElseThrow(), 1, Status.RUNNING, "node-a");
  }

  private void start(String id) {
    workflows()
        .startInstance(new StartInstanceParams(id, NAME, null, INPUT, null, IfExists.FAIL, now()));
  }

  /** Commits turn {@code t} with history event {@code eventId}, an event raised for the next. */
  private void commit(TurnLease t, int eventId, Status status, String stickyNode) {
    String id = t.instance().id();
    workflows()
        .commitTurn(
            new CommitTurnParams(
                    id,
                    t.token(),
                    new InstanceUpdate(status, 1, "1.0", INPUT, null, null, null),
                    List.of(
                        new ExecutionRow(
                            1,
                            NAME,
                            "1.0",
                            ExecutionRow.Status.RUNNING,
                            INPUT,
                            null,
                            now(),
                            null,
                            1)),
                    List.of(new HistoryRow(1, eventId, "TURN_STARTED", null, null, "{}", 1, now())),
                    t.batch().stream().map(r -> r.seq()).toList(),
                    List.of(
                        new NewInboxRow(id, null, "EVENT_RAISED", null, "go", "{}", now(), null)),
                    List.of(),
                    List.of(),
                    now())
                .stickingTo(stickyNode));
  }

  private Optional<TurnLease> lease(String node, Duration stickyWait) {
    return workflows()
        .leaseTurn(
            new LeaseTurnParams(node, TURN_LEASE, 100, now(), null, KnownHistory.NONE, stickyWait));
  }

  private Optional<String> leasedId(String node, Duration stickyWait) {
    return lease(node, stickyWait).map(t -> t.instance().id());
  }

  @Test
  void lease_byTheStickyNode_takesTheTurnAtOnce() {
    assertThat(leasedId("node-a", WAIT)).contains(ID);
  }

  @Test
  void lease_byAnotherNode_waitsUntilTheRowHasBeenVisibleForItsStickyWait() {
    assertThat(leasedId("node-b", WAIT)).as("at once").isEmpty();
    advance(WAIT.minus(MILLI));
    assertThat(leasedId("node-b", WAIT)).as("a millisecond early").isEmpty();
    advance(MILLI);

    assertThat(leasedId("node-b", WAIT)).contains(ID);
  }

  @Test
  void lease_byAnotherNodeWithoutStickyWait_takesTheTurnAtOnce() {
    assertThat(leasedId("node-b", Duration.ZERO)).contains(ID);
  }

  @Test
  void lease_byAnotherNode_takesAnInstanceDueLaterThatSticksToNoOne() {
    advance(MILLI);
    start("order-8");

    assertThat(leasedId("node-b", WAIT)).as("passes over order-7").contains("order-8");
  }

  @Test
  void nextDueAt_forAnotherNode_isWhenItsStickyWaitHasPassed() {
    assertThat(workflows().nextDueAt(now(), "node-a", WAIT)).contains(now());
    assertThat(workflows().nextDueAt(now(), "node-b", WAIT)).contains(now().plus(WAIT));
    assertThat(workflows().nextDueAt(now())).as("stickiness ignored").contains(now());
  }

  @Test
  void releaseSticky_letsAnyNodeTakeTheTurnAtOnce() {
    assertThat(workflows().releaseSticky("node-b")).as("another node's").isZero();
    assertThat(workflows().releaseSticky("node-a")).isEqualTo(1);

    assertThat(leasedId("node-b", WAIT)).contains(ID);
  }

  @Test
  void commitNamingNoNode_leavesTheInstanceToAnyNode() {
    commit(lease("node-a", WAIT).orElseThrow(), 2, Status.RUNNING, null);

    assertThat(leasedId("node-b", WAIT)).contains(ID);
  }

  @Test
  void commitThatEndsTheInstance_leavesNothingSticking() {
    commit(lease("node-a", WAIT).orElseThrow(), 2, Status.COMPLETED, "node-a");

    assertThat(workflows().releaseSticky("node-a")).isZero();
  }

  @Test
  void abandon_leavesTheInstanceToAnyNode() {
    TurnLease t = lease("node-a", WAIT).orElseThrow();

    workflows().abandonTurn(abandon(t));

    assertThat(leasedId("node-b", WAIT)).contains(ID);
  }

  @Test
  void leaseTurnParams_negativeStickyWait_isRefused() {
    assertThatThrownBy(() -> lease("node-b", Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("stickyWait: must not be negative, was PT-0.001S");
  }

  private AbandonTurnParams abandon(TurnLease t) {
    return new AbandonTurnParams(
        t.instance().id(), t.token(), Duration.ZERO, false, "NODE_ERROR", "x", "test", now());
  }
}
