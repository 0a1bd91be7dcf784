package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.InstanceExistsException;
import io.redrive.error.TurnLostException;
import io.redrive.store.workflow.AbandonTurnParams;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.RenewTurnParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceParams.IfExists;
import io.redrive.store.workflow.StartInstanceResult;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The workflow store (docs/workflows.md), run unchanged on every store: starting and finding
 * instances; leasing, renewing and abandoning turns with the turn counter of WORKFLOWS.md §4.1 (the
 * store halves of duroxide's D-1 to D-6); committing turns joins as it lands.
 */
public abstract class WorkflowStoreContract extends ComplianceTestBase {
  private static final String ID = "order-42";
  private static final String NAME = "ship-order";
  private static final String INPUT = "{\"order\":42}";
  private static final String NODE = "node-1";
  private static final Duration TURN_LEASE = Duration.ofSeconds(15);

  private WorkflowStore workflows() {
    assertThat(store).as("every Redrive store keeps workflows").isInstanceOf(WorkflowStore.class);
    return (WorkflowStore) store;
  }

  private StartInstanceParams start(String id, IfExists ifExists) {
    return new StartInstanceParams(id, NAME, "1.2.0", INPUT, null, ifExists, now());
  }

  @Test
  void start_newId_createsPendingInstance() {
    StartInstanceResult result = workflows().startInstance(start(ID, IfExists.FAIL));

    assertThat(result).isEqualTo(new StartInstanceResult(ID, true));
    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.id()).isEqualTo(ID);
    assertThat(i.name()).isEqualTo(NAME);
    assertThat(i.version()).as("pinned by the first turn").isNull();
    assertThat(i.requestedVersion()).isEqualTo("1.2.0");
    assertThat(i.status()).isEqualTo(InstanceRow.Status.PENDING);
    assertThat(i.status().terminal()).isFalse();
    assertThat(i.executionId()).isEqualTo(1);
    assertThat(i.parentId()).isNull();
    assertThat(i.parentExecution()).isNull();
    assertThat(i.parentSeq()).isNull();
    assertThat(i.rootId()).isEqualTo(ID);
    assertThat(i.input()).isEqualTo(INPUT);
    assertThat(i.output()).isNull();
    assertThat(i.failure()).isNull();
    assertThat(i.createdAt()).isEqualTo(now());
    assertThat(i.updatedAt()).isEqualTo(now());
    assertThat(i.completedAt()).isNull();
    assertThat(i.notBefore()).isNull();
    assertThat(i.turnAttempt()).isZero();
    assertThat(i.leasedBy()).isNull();
    assertThat(i.leaseExpiresAt()).isNull();
    assertThat(i.historyEvents()).isZero();
    assertThat(i.historyBytes()).isZero();
  }

  @Test
  void start_withStartAt_holdsTheInstanceUntilThen() {
    Instant at = now().plus(Duration.ofMinutes(5));

    workflows()
        .startInstance(new StartInstanceParams(ID, NAME, null, null, at, IfExists.FAIL, now()));

    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.notBefore()).isEqualTo(at);
    assertThat(i.requestedVersion()).isNull();
    assertThat(i.input()).isNull();
  }

  @Test
  void start_takenIdWithFail_isRejectedAndChangesNothing() {
    workflows().startInstance(start(ID, IfExists.FAIL));
    advance(Duration.ofSeconds(1));

    assertThatThrownBy(
            () ->
                workflows()
                    .startInstance(
                        new StartInstanceParams(
                            ID, "other", null, "{}", null, IfExists.FAIL, now())))
        .isInstanceOf(InstanceExistsException.class)
        .hasMessageContaining(ID)
        .satisfies(
            e -> assertThat(((InstanceExistsException) e).code()).isEqualTo("INSTANCE_EXISTS"));

    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.name()).isEqualTo(NAME);
    assertThat(i.input()).isEqualTo(INPUT);
    assertThat(i.updatedAt()).isEqualTo(now().minus(Duration.ofSeconds(1)));
  }

  @Test
  void start_takenIdWithReturnExisting_answersTheExistingOneAndChangesNothing() {
    workflows().startInstance(start(ID, IfExists.FAIL));

    StartInstanceResult again =
        workflows()
            .startInstance(
                new StartInstanceParams(
                    ID, "other", null, "{}", null, IfExists.RETURN_EXISTING, now()));

    assertThat(again).isEqualTo(new StartInstanceResult(ID, false));
    assertThat(workflows().findInstance(ID).orElseThrow().name()).isEqualTo(NAME);
  }

  @Test
  void start_onCallerConnection_visibleOnCommitGoneOnRollback() throws SQLException {
    try (Connection connection = db.connect()) {
      connection.setAutoCommit(false);
      workflows().startInstance(connection, start(ID, IfExists.FAIL));
      workflows().startInstance(connection, start("rolled-back", IfExists.FAIL));
      connection.commit();
      workflows().startInstance(connection, start("rolled-back-2", IfExists.FAIL));
      assertThat(connection.getAutoCommit()).as("the transaction stays the caller's").isFalse();
      connection.rollback();
    }

    assertThat(workflows().findInstance(ID)).isPresent();
    assertThat(workflows().findInstance("rolled-back")).isPresent();
    assertThat(workflows().findInstance("rolled-back-2")).isEmpty();
  }

  @Test
  void find_unknownId_isEmpty() {
    assertThat(workflows().findInstance("no-such-instance")).isEmpty();
  }

  @Test
  void startParams_badInput_isRejectedNamingTheField() {
    assertThatThrownBy(() -> start(" ", IfExists.FAIL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instanceId");
    assertThatThrownBy(() -> start(repeat('x', 201), IfExists.FAIL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instanceId")
        .hasMessageContaining("200");
    assertThatThrownBy(
            () -> new StartInstanceParams(ID, "", null, null, null, IfExists.FAIL, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");
    assertThatThrownBy(
            () -> new StartInstanceParams("a\nb", NAME, null, null, null, IfExists.FAIL, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("control characters");
    assertThatThrownBy(() -> new StartInstanceParams(ID, NAME, null, null, null, null, now()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("ifExists");
  }

  // ---- turns ----

  private Optional<TurnLease> leaseTurn() {
    return workflows().leaseTurn(new LeaseTurnParams(NODE, TURN_LEASE, 100, now()));
  }

  private TurnLease leaseTurnOf(String id) {
    TurnLease t = leaseTurn().orElseThrow(() -> new AssertionError("nothing leased"));
    assertThat(t.instance().id()).isEqualTo(id);
    return t;
  }

  private void abandon(TurnLease t, Duration delay, boolean refund) {
    workflows()
        .abandonTurn(
            new AbandonTurnParams(
                t.instance().id(), t.token(), delay, refund, "NODE_ERROR", null, "test", now()));
  }

  private int turnAttempt(String id) {
    return workflows().findInstance(id).orElseThrow().turnAttempt();
  }

  @Test
  void leaseTurn_firstLease_countsOneAndCarriesTheStartRow() {
    workflows().startInstance(start(ID, IfExists.FAIL));

    TurnLease t = leaseTurnOf(ID);

    assertThat(t.attempt()).as("D-1: the first lease counts 1").isEqualTo(1);
    assertThat(t.token()).isNotBlank();
    assertThat(t.history()).isEmpty();
    assertThat(t.batch()).hasSize(1);
    InboxRow startRow = t.batch().get(0);
    assertThat(startRow.kind()).isEqualTo("START");
    assertThat(startRow.name()).isEqualTo(NAME);
    assertThat(startRow.data()).isEqualTo(INPUT);
    assertThat(startRow.executionId()).as("the current execution").isNull();
    assertThat(startRow.refSeq()).isNull();
    assertThat(startRow.visibleAt()).isEqualTo(now());
    assertThat(t.instance().leasedBy()).isEqualTo(NODE);
    assertThat(t.instance().leaseExpiresAt()).isEqualTo(now().plus(TURN_LEASE));
    assertThat(t.instance().turnAttempt()).isEqualTo(1);
  }

  @Test
  void leaseTurn_nothingStarted_isEmpty() {
    assertThat(leaseTurn()).isEmpty();
  }

  @Test
  void leaseTurn_whileTheOnlyInstanceIsLeased_isEmpty() {
    workflows().startInstance(start(ID, IfExists.FAIL));
    leaseTurnOf(ID);

    assertThat(leaseTurn()).as("one live lease per instance").isEmpty();
  }

  @Test
  void abandonThenLease_countsEveryTry() {
    workflows().startInstance(start(ID, IfExists.FAIL));

    for (int expected = 1; expected <= 3; expected++) {
      TurnLease t = leaseTurnOf(ID);
      assertThat(t.attempt()).as("D-2: try %d", expected).isEqualTo(expected);
      assertThat(t.batch()).as("the batch stays until a commit takes it").hasSize(1);
      abandon(t, Duration.ZERO, false);
    }
    assertThat(turnAttempt(ID)).isEqualTo(3);
    assertThat(workflows().findInstance(ID).orElseThrow().leasedBy()).isNull();
  }

  @Test
  void leaseExpiry_countsTheLostTry_andOnlyTheNewTokenHolds() {
    workflows().startInstance(start(ID, IfExists.FAIL));
    TurnLease lost = leaseTurnOf(ID);

    advance(TURN_LEASE.minus(MILLI));
    assertThat(leaseTurn()).as("held until its expiry (as a message lease)").isEmpty();
    advance(MILLI);
    TurnLease again = leaseTurnOf(ID);

    assertThat(again.attempt()).as("D-3: the expired try counts").isEqualTo(2);
    assertThat(again.token()).isNotEqualTo(lost.token());
    assertThatThrownBy(() -> abandon(lost, Duration.ZERO, false))
        .isInstanceOf(TurnLostException.class)
        .hasMessageContaining(ID)
        .satisfies(e -> assertThat(((TurnLostException) e).code()).isEqualTo("LEASE_LOST"));
    assertThatThrownBy(
            () -> workflows().renewTurn(new RenewTurnParams(ID, lost.token(), TURN_LEASE, now())))
        .isInstanceOf(TurnLostException.class);
    assertThat(turnAttempt(ID)).as("a lost token changes nothing").isEqualTo(2);
    abandon(again, Duration.ZERO, false);
    assertThat(leaseTurnOf(ID).attempt()).isEqualTo(3);
  }

  @Test
  void attempts_areCountedPerInstance() {
    workflows().startInstance(start(ID, IfExists.FAIL));
    workflows().startInstance(start("other", IfExists.FAIL));
    TurnLease first = leaseTurnOf(ID);
    TurnLease second = leaseTurnOf("other");
    abandon(first, Duration.ZERO, false);

    assertThat(leaseTurnOf(ID).attempt()).as("D-4").isEqualTo(2);
    assertThat(second.attempt()).isEqualTo(1);
    assertThat(turnAttempt("other")).isEqualTo(1);
  }

  @Test
  void refund_takesTheTryBack_everyTime() {
    workflows().startInstance(start(ID, IfExists.FAIL));
    abandon(leaseTurnOf(ID), Duration.ZERO, false);
    assertThat(turnAttempt(ID)).isEqualTo(1);

    abandon(leaseTurnOf(ID), Duration.ZERO, true);
    assertThat(turnAttempt(ID)).as("D-5: the refunded try is taken back").isEqualTo(1);
    abandon(leaseTurnOf(ID), Duration.ZERO, true);
    abandon(leaseTurnOf(ID), Duration.ZERO, true);
    assertThat(turnAttempt(ID)).isEqualTo(1);

    TurnLease t = leaseTurnOf(ID);
    assertThat(t.attempt()).isEqualTo(2);
    abandon(t, Duration.ZERO, true);
    abandon(leaseTurnOf(ID), Duration.ZERO, true);
    // D-6 (never below 0) needs a counter of 0 under a lease, which a lease never leaves (it
    // counts first); the SQL floors it all the same, and the testkit hook that sets the counter
    // will test it with the runtime.
    assertThat(turnAttempt(ID)).isEqualTo(1);
  }

  @Test
  void abandon_withDelay_holdsTheWholeInstanceUntilThen() {
    workflows().startInstance(start(ID, IfExists.FAIL));
    abandon(leaseTurnOf(ID), Duration.ofSeconds(5), false);

    advance(Duration.ofSeconds(5).minus(MILLI));
    assertThat(leaseTurn()).isEmpty();
    advance(MILLI);
    assertThat(leaseTurnOf(ID).attempt()).isEqualTo(2);
  }

  @Test
  void start_withStartAt_leasesNothingBeforeThen() {
    workflows()
        .startInstance(
            new StartInstanceParams(
                ID, NAME, null, INPUT, now().plus(Duration.ofMinutes(1)), IfExists.FAIL, now()));

    assertThat(leaseTurn()).isEmpty();
    advance(Duration.ofMinutes(1));
    assertThat(leaseTurnOf(ID).attempt()).isEqualTo(1);
  }

  @Test
  void renew_extendsTheLeaseFromNow() {
    workflows().startInstance(start(ID, IfExists.FAIL));
    TurnLease t = leaseTurnOf(ID);
    advance(Duration.ofSeconds(10));

    Instant until = workflows().renewTurn(new RenewTurnParams(ID, t.token(), TURN_LEASE, now()));

    assertThat(until).isEqualTo(now().plus(TURN_LEASE));
    advance(Duration.ofSeconds(10));
    assertThat(leaseTurn()).as("renewed: still held").isEmpty();
    advance(Duration.ofSeconds(5).plus(MILLI));
    assertThat(leaseTurnOf(ID).attempt()).isEqualTo(2);
  }

  @Test
  void turnParams_badInput_isRejectedNamingTheField() {
    assertThatThrownBy(() -> new LeaseTurnParams(" ", TURN_LEASE, 1, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node");
    assertThatThrownBy(() -> new LeaseTurnParams(NODE, Duration.ZERO, 1, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("leaseTimeout");
    assertThatThrownBy(() -> new LeaseTurnParams(NODE, TURN_LEASE, 0, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxBatch");
    assertThatThrownBy(
            () ->
                new AbandonTurnParams(
                    ID, "t", Duration.ofSeconds(-1), false, "NODE_ERROR", null, null, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("delay");
    assertThatThrownBy(
            () -> new AbandonTurnParams(ID, "t", Duration.ZERO, false, " ", null, null, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("outcome");
  }

  @Test
  void leaseTurn_eightThreadsOnThreeNodes_neverTwoLiveLeasesOnOneInstance() throws Exception {
    int instanceCount = 40;
    int leasesWanted = 600;
    for (int i = 0; i < instanceCount; i++) {
      workflows().startInstance(start("instance-" + i, IfExists.FAIL));
    }
    List<WorkflowStore> nodes =
        List.of(workflows(), (WorkflowStore) db.openStore(), (WorkflowStore) db.openStore());
    Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    AtomicInteger twice = new AtomicInteger();
    AtomicInteger leases = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        WorkflowStore node = nodes.get(t % nodes.size());
        String nodeId = "node-" + t;
        runs.add(
            pool.submit(
                () -> {
                  while (leases.get() < leasesWanted) {
                    Optional<TurnLease> lease =
                        node.leaseTurn(new LeaseTurnParams(nodeId, TURN_LEASE, 100, now()));
                    if (lease.isEmpty()) {
                      Thread.yield(); // all 40 are held by other threads this instant
                      continue;
                    }
                    TurnLease turn = lease.get();
                    String id = turn.instance().id();
                    AtomicInteger held = inFlight.computeIfAbsent(id, k -> new AtomicInteger());
                    if (held.incrementAndGet() > 1) {
                      twice.incrementAndGet();
                    }
                    leases.incrementAndGet();
                    held.decrementAndGet();
                    node.abandonTurn(
                        new AbandonTurnParams(
                            id,
                            turn.token(),
                            Duration.ZERO,
                            false,
                            "NODE_ERROR",
                            null,
                            null,
                            now()));
                  }
                  return null;
                }));
      }
      for (Future<?> run : runs) {
        run.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(twice.get()).as("an instance leased by two turns at once").isZero();
    int counted = 0;
    for (int i = 0; i < instanceCount; i++) {
      InstanceRow row = workflows().findInstance("instance-" + i).orElseThrow();
      assertThat(row.leasedBy()).as("every turn abandoned").isNull();
      counted += row.turnAttempt();
    }
    assertThat(counted).as("every lease counted exactly once").isEqualTo(leases.get());
  }
}
