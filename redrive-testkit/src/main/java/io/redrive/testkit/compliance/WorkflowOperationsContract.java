package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.ConflictException;
import io.redrive.error.InstanceNotFoundException;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.Message;
import io.redrive.message.MessageIds;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.CreateQueueParams;
import io.redrive.store.EnqueueParams;
import io.redrive.store.workflow.AbandonTurnParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.ActivityStart;
import io.redrive.store.workflow.CommitTurnParams.ChildStart;
import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstancePage;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.ListInstancesParams;
import io.redrive.store.workflow.RaiseEventParams;
import io.redrive.store.workflow.RetryInstanceParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceParams.IfExists;
import io.redrive.store.workflow.TerminateParams;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.TurnRow;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reading and operating workflow instances (docs/workflows.md), run unchanged on every store:
 * listing with filters and pages, the timeline of tries, the next due time a poller sleeps until,
 * raising events (serialized with a commit that ends the instance), requesting termination,
 * retrying a failed instance and deleting a tree.
 */
public abstract class WorkflowOperationsContract extends ComplianceTestBase {
  private static final String ID = "order-42";
  private static final String NAME = "ship-order";
  private static final String ACTIVITIES = "wf.activities";
  private static final Duration TURN_LEASE = Duration.ofSeconds(15);

  private WorkflowStore workflows() {
    return (WorkflowStore) store;
  }

  @BeforeEach
  void createActivityQueue() {
    store.createQueue(
        new CreateQueueParams(ACTIVITIES, QueuePolicy.defaults().withMaxAttempts(1), true, now()));
  }

  private void start(String id, String name) {
    workflows()
        .startInstance(new StartInstanceParams(id, name, null, "{}", null, IfExists.FAIL, now()));
  }

  private TurnLease leaseTurnOf(String id) {
    TurnLease t =
        workflows()
            .leaseTurn(new LeaseTurnParams("node-1", TURN_LEASE, 100, now()))
            .orElseThrow(() -> new AssertionError("nothing leased"));
    assertThat(t.instance().id()).isEqualTo(id);
    return t;
  }

  private HistoryRow event(TurnLease t, int offset, String kind) {
    return new HistoryRow(
        t.instance().executionId(),
        t.history().size() + 1 + offset,
        kind,
        null,
        null,
        "{\"kind\":\"" + kind + "\"}",
        1,
        now());
  }

  /** Commits {@code t} consuming its batch, moving the instance to {@code status}. */
  private void commit(
      TurnLease t,
      Status status,
      List<NewInboxRow> inserts,
      List<ChildStart> children,
      List<ActivityStart> activities) {
    workflows()
        .commitTurn(
            new CommitTurnParams(
                t.instance().id(),
                t.token(),
                new InstanceUpdate(
                    status,
                    1,
                    "1.0",
                    "{}",
                    null,
                    status == Status.FAILED ? "{\"reason\":\"POISON\"}" : null,
                    null),
                List.of(),
                List.of(event(t, 0, status.name())),
                t.batch().stream().map(InboxRow::seq).toList(),
                inserts,
                children,
                activities,
                now()));
  }

  private void commit(TurnLease t, Status status) {
    commit(t, status, List.of(), List.of(), List.of());
  }

  // ---- list ----

  @Test
  void list_filtersAndPagesNewestFirst_everyInstanceOnce() {
    for (int i = 0; i < 7; i++) {
      start("a-" + i, i % 2 == 0 ? NAME : "bill");
    }
    commit(leaseTurnOf("a-0"), Status.COMPLETED);

    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      InstancePage page =
          workflows().listInstances(new ListInstancesParams(Set.of(), null, null, 3, cursor));
      page.instances().forEach(i -> seen.add(i.id()));
      cursor = page.nextCursor();
      pages++;
    } while (cursor != null);

    assertThat(seen).containsExactly("a-6", "a-5", "a-4", "a-3", "a-2", "a-1", "a-0");
    assertThat(pages).isEqualTo(3);
    assertThat(
            workflows()
                .listInstances(
                    new ListInstancesParams(Set.of(Status.PENDING), NAME, null, 10, null))
                .instances())
        .extracting(InstanceRow::id)
        .containsExactly("a-6", "a-4", "a-2");
    assertThat(
            workflows()
                .listInstances(
                    new ListInstancesParams(Set.of(Status.COMPLETED), null, null, 10, null))
                .instances())
        .extracting(InstanceRow::id)
        .containsExactly("a-0");
    assertThat(workflows().listInstances(ListInstancesParams.all(7)).nextCursor())
        .as("exactly one full page: no next")
        .isNull();
    assertThatThrownBy(() -> new ListInstancesParams(Set.of(), null, null, 10, "abc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cursor");
    assertThatThrownBy(() -> ListInstancesParams.all(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limit");
  }

  @Test
  void list_byRoot_findsTheWholeTree() {
    start(ID, NAME);
    start("other", NAME);
    commit(
        leaseTurnOf(ID),
        Status.RUNNING,
        List.of(),
        List.of(new ChildStart(ID + "::sub::1", "pack", null, null, 1, null)),
        List.of());

    assertThat(
            workflows()
                .listInstances(new ListInstancesParams(Set.of(), null, ID, 10, null))
                .instances())
        .extracting(InstanceRow::id)
        .containsExactly(ID + "::sub::1", ID);
  }

  @Test
  void list_byVersionParentRootsAndStartTime_keepsOnlyMatches() {
    start(ID, NAME);
    java.time.Instant between = now().plusMillis(1);
    advance(Duration.ofSeconds(1));
    start("later", NAME);
    commit(
        leaseTurnOf(ID),
        Status.RUNNING,
        List.of(),
        List.of(new ChildStart(ID + "::sub::1", "pack", null, null, 1, null)),
        List.of());

    assertThat(ids(new ListInstancesParams(Set.of(), null, null, 10, null).withVersion("1.0")))
        .containsExactly(ID);
    assertThat(ids(ListInstancesParams.all(10).withParentId(ID))).containsExactly(ID + "::sub::1");
    assertThat(ids(ListInstancesParams.all(10).withRootsOnly(true))).containsExactly("later", ID);
    assertThat(ids(ListInstancesParams.all(10).withCreated(between, null)))
        .containsExactly(ID + "::sub::1", "later");
    assertThat(ids(ListInstancesParams.all(10).withCreated(null, between))).containsExactly(ID);
    assertThatThrownBy(() -> ListInstancesParams.all(10).withParentId(ID).withRootsOnly(true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("parentId");
  }

  @Test
  void countInstances_byStatus_leavesOutEmptyStatuses() {
    assertThat(workflows().countInstances()).isEmpty();
    start("c-1", NAME);
    start("c-2", NAME);
    start("c-3", NAME);
    commit(leaseTurnOf("c-1"), Status.COMPLETED);

    assertThat(workflows().countInstances())
        .containsExactlyInAnyOrderEntriesOf(
            java.util.Map.of(Status.PENDING, 2L, Status.COMPLETED, 1L));
  }

  private List<String> ids(ListInstancesParams params) {
    return workflows().listInstances(params).instances().stream().map(InstanceRow::id).toList();
  }

  // ---- timeline and due times ----

  @Test
  void timeline_keepsEveryTryThatEndedWithoutACommit() {
    start(ID, NAME);
    TurnLease first = leaseTurnOf(ID);
    workflows()
        .abandonTurn(
            new AbandonTurnParams(
                ID, first.token(), Duration.ZERO, false, "UNREGISTERED", null, "nope", now()));
    TurnLease second = leaseTurnOf(ID);
    commit(second, Status.RUNNING, List.of(timer(ID, 1)), List.of(), List.of());

    assertThat(workflows().readTimeline(ID))
        .extracting(TurnRow::outcome, TurnRow::attempt)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("UNREGISTERED", 1));
    assertThat(workflows().readTimeline("no-such-instance")).isEmpty();
  }

  @Test
  void timeline_keepsTheBuildOfEachTry_alsoOfANodeThatVanished() {
    start(ID, NAME);
    TurnLease first =
        workflows()
            .leaseTurn(new LeaseTurnParams("node-1", TURN_LEASE, 100, now(), "1.4.0"))
            .orElseThrow();
    workflows()
        .abandonTurn(
            new AbandonTurnParams(
                ID, first.token(), Duration.ZERO, false, "NONDETERMINISM", null, "x", now()));
    workflows()
        .leaseTurn(new LeaseTurnParams("node-2", TURN_LEASE, 100, now(), "1.5.0"))
        .orElseThrow();
    advance(TURN_LEASE.plusSeconds(1)); // node-2 vanishes: the next lease records its expiry
    workflows().leaseTurn(new LeaseTurnParams("node-3", TURN_LEASE, 100, now())).orElseThrow();

    assertThat(workflows().readTimeline(ID))
        .extracting(TurnRow::node, TurnRow::build, TurnRow::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("node-1", "1.4.0", "NONDETERMINISM"),
            org.assertj.core.groups.Tuple.tuple("node-2", "1.5.0", "LEASE_EXPIRED"));
  }

  @Test
  void pendingActivities_listsLinksUntilTheirMessageEnds() {
    String activity = startWithACharge();

    assertThat(workflows().pendingActivities(ID))
        .containsExactly(
            new io.redrive.store.workflow.ActivityLinkRow(1, 1, "charge", activity, ACTIVITIES));
    redrive.completeWithResult(leaseOne(ACTIVITIES).token(), "{}");
    assertThat(workflows().pendingActivities(ID)).isEmpty();
    assertThat(workflows().pendingActivities("no-such-instance")).isEmpty();
  }

  private NewInboxRow timer(String id, long seq) {
    return new NewInboxRow(
        id, 1, "TIMER_FIRED", seq, null, null, now().plus(Duration.ofMinutes(1)), null);
  }

  @Test
  void nextDueAt_isWhenTheNextTurnMayBeLeased() {
    assertThat(workflows().nextDueAt(now())).as("nothing waits").isEmpty();
    start(ID, NAME);
    assertThat(workflows().nextDueAt(now())).contains(now());

    TurnLease t = leaseTurnOf(ID);
    assertThat(workflows().nextDueAt(now()))
        .as("held: due when the lease runs out")
        .contains(now().plus(TURN_LEASE));
    workflows()
        .abandonTurn(
            new AbandonTurnParams(
                ID, t.token(), Duration.ofSeconds(5), false, "NODE_ERROR", null, null, now()));
    assertThat(workflows().nextDueAt(now()))
        .as("the whole instance waits out its backoff")
        .contains(now().plusSeconds(5));

    advance(Duration.ofSeconds(5));
    commit(leaseTurnOf(ID), Status.RUNNING, List.of(timer(ID, 1)), List.of(), List.of());
    assertThat(workflows().nextDueAt(now())).contains(now().plus(Duration.ofMinutes(1)));
  }

  // ---- wake-ups ----

  @Test
  void subscribeTurns_hearsEveryWriteThatMayMakeATurnDue_notAFutureStart() throws Exception {
    AtomicInteger heard = new AtomicInteger();
    try (var subscription = workflows().subscribeTurns(heard::incrementAndGet)) {
      workflows()
          .startInstance(
              new StartInstanceParams(
                  "later",
                  NAME,
                  null,
                  "{}",
                  now().plus(Duration.ofHours(1)),
                  IfExists.FAIL,
                  now()));
      assertThat(heard.get()).as("a start in an hour is no turn due now").isZero();

      List<Runnable> writes =
          List.of(
              () -> start(ID, NAME),
              () -> workflows().raiseEvent(new RaiseEventParams(ID, "go", "{}", null, now())),
              () ->
                  commit(
                      leaseTurnOf(ID),
                      Status.RUNNING,
                      List.of(),
                      List.of(),
                      List.of(
                          new ActivityStart(
                              new EnqueueParams.Entry(
                                  MessageIds.next(clock),
                                  NewMessage.builder(ACTIVITIES, "charge").payload("{}").build()),
                              1,
                              "charge",
                              0))),
              () -> redrive.completeWithResult(leaseOne(ACTIVITIES).token(), "{}"),
              () -> workflows().requestTerminate(new TerminateParams(ID, "done", now())));
      for (Runnable write : writes) {
        int before = heard.get();
        write.run();
        org.awaitility.Awaitility.await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> heard.get() > before);
      }
    }
  }

  // ---- raise ----

  @Test
  void raise_buffersTheEvent_evenBeforeTheFirstTurn_andDropsARepeatedKey() {
    workflows()
        .startInstance(
            new StartInstanceParams(
                ID, NAME, null, "{}", now().plus(Duration.ofMinutes(1)), IfExists.FAIL, now()));

    boolean first =
        workflows()
            .raiseEvent(new RaiseEventParams(ID, "approved", "{\"by\":\"ada\"}", "k1", now()));
    boolean again =
        workflows()
            .raiseEvent(new RaiseEventParams(ID, "approved", "{\"by\":\"bob\"}", "k1", now()));
    workflows().raiseEvent(new RaiseEventParams(ID, "approved", null, null, now()));

    assertThat(first).isTrue();
    assertThat(again).isFalse();
    assertThat(workflows().readInbox(ID))
        .extracting(InboxRow::kind, InboxRow::name, InboxRow::data)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("START", NAME, "{}"),
            org.assertj.core.groups.Tuple.tuple("EVENT_RAISED", "approved", "{\"by\":\"ada\"}"),
            org.assertj.core.groups.Tuple.tuple("EVENT_RAISED", "approved", null));
    assertThat(workflows().leaseTurn(new LeaseTurnParams("n", TURN_LEASE, 10, now())))
        .as("the start delay holds the events too")
        .isEmpty();
  }

  @Test
  void raise_unknownOrEndedInstance_isRefusedNamingIt() {
    start(ID, NAME);
    commit(leaseTurnOf(ID), Status.COMPLETED);

    assertThatThrownBy(
            () -> workflows().raiseEvent(new RaiseEventParams("nope", "e", null, null, now())))
        .isInstanceOf(InstanceNotFoundException.class)
        .hasMessageContaining("nope")
        .satisfies(
            e ->
                assertThat(((InstanceNotFoundException) e).code()).isEqualTo("INSTANCE_NOT_FOUND"));
    assertThatThrownBy(
            () -> workflows().raiseEvent(new RaiseEventParams(ID, "e", null, null, now())))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining(ID)
        .hasMessageContaining("COMPLETED")
        .satisfies(
            e ->
                assertThat(((ConflictException) e).code())
                    .isEqualTo(ConflictException.INSTANCE_NOT_RUNNING));
    assertThat(workflows().readInbox(ID)).isEmpty();
    assertThatThrownBy(() -> new RaiseEventParams(ID, " ", null, null, now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");
  }

  @Test
  void raisesRacingACommitThatEndsTheInstance_leaveNothingInItsInbox() throws Exception {
    start(ID, NAME);
    TurnLease t = leaseTurnOf(ID);
    AtomicBoolean ended = new AtomicBoolean();
    AtomicInteger acceptedAfterEnd = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    WorkflowStore other = (WorkflowStore) db.openStore();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int n = 0; n < 4; n++) {
        WorkflowStore node = n % 2 == 0 ? workflows() : other;
        runs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 50; i++) {
                    boolean endedBefore = ended.get();
                    try {
                      node.raiseEvent(new RaiseEventParams(ID, "ping", "{}", null, now()));
                      if (endedBefore) {
                        acceptedAfterEnd.incrementAndGet();
                      }
                    } catch (ConflictException e) {
                      refused.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      Thread.sleep(5);
      commit(t, Status.COMPLETED);
      ended.set(true);
      for (Future<?> run : runs) {
        run.get(1, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(acceptedAfterEnd.get()).as("an event accepted after the end").isZero();
    assertThat(workflows().readInbox(ID))
        .as("every accepted event went with the end; none slipped in after it")
        .isEmpty();
  }

  // ---- terminate ----

  @Test
  void terminate_bypassesABackoff_andIsRequestedOnce() {
    start(ID, NAME);
    TurnLease t = leaseTurnOf(ID);
    workflows()
        .abandonTurn(
            new AbandonTurnParams(
                ID, t.token(), Duration.ofHours(1), false, "UNREGISTERED", null, null, now()));

    assertThat(workflows().requestTerminate(new TerminateParams(ID, "operator: stuck", now())))
        .isTrue();
    assertThat(workflows().requestTerminate(new TerminateParams(ID, "again", now()))).isFalse();

    TurnLease next = leaseTurnOf(ID);
    assertThat(next.batch()).extracting(InboxRow::kind).containsExactly("START", "TERMINATE");
    assertThat(next.attempt()).isEqualTo(2);
    commit(next, Status.TERMINATED);
    assertThatThrownBy(() -> workflows().requestTerminate(new TerminateParams(ID, null, now())))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("TERMINATED");
    assertThatThrownBy(() -> workflows().requestTerminate(new TerminateParams("nope", null, now())))
        .isInstanceOf(InstanceNotFoundException.class);
  }

  // ---- retry ----

  /** Starts {@link #ID} and commits its first turn, which schedules activity "charge" (#1). */
  private String startWithACharge() {
    start(ID, NAME);
    String activity = MessageIds.next(clock);
    commit(
        leaseTurnOf(ID),
        Status.RUNNING,
        List.of(),
        List.of(),
        List.of(
            new ActivityStart(
                new EnqueueParams.Entry(
                    activity, NewMessage.builder(ACTIVITIES, "charge").payload("{}").build()),
                1,
                "charge",
                0)));
    return activity;
  }

  /** {@link #ID} scheduled an activity that poisoned, then failed with it. */
  private String failedWithAPoisonedActivity() {
    String activity = startWithACharge();
    leaseOne(ACTIVITIES);
    advance(LONG_LEASE);
    assertThat(lease(ACTIVITIES, 1).poisoned()).containsExactly(activity);
    TurnLease t = leaseTurnOf(ID);
    assertThat(t.batch()).extracting(InboxRow::kind).containsExactly("ACTIVITY_RESULT");
    commit(t, Status.FAILED);
    return activity;
  }

  @Test
  void retry_failedInstance_runsAgainWithItsActivityRetriedInPlace() {
    String activity = failedWithAPoisonedActivity();
    int stored = workflows().readHistory(ID, 1).size();
    HistoryRow retried =
        new HistoryRow(
            1, stored + 1, "ORCHESTRATION_RETRIED", null, null, "{\"by\":\"ada\"}", 3, now());

    workflows()
        .retryInstance(
            new RetryInstanceParams(
                ID, retried, List.of(), List.of(activity), "ada", "card fixed", now()));

    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.status()).isEqualTo(Status.RUNNING);
    assertThat(i.failure()).isNull();
    assertThat(i.completedAt()).isNull();
    assertThat(i.turnAttempt()).isZero();
    assertThat(workflows().readHistory(ID, 1))
        .last()
        .extracting(HistoryRow::kind)
        .isEqualTo("ORCHESTRATION_RETRIED");
    assertThat(workflows().readTimeline(ID))
        .last()
        .satisfies(
            r -> {
              assertThat(r.outcome()).isEqualTo("RETRIED");
              assertThat(r.node()).isEqualTo("ada");
              assertThat(r.message()).isEqualTo("card fixed");
            });
    Message m = message(activity);
    assertThat(m.state()).isEqualTo(MessageState.READY);
    assertThat(m.attempts()).isZero();
    assertThat(outcomes(activity)).last().isEqualTo(Outcome.RETRIED);
    LeasedMessage again = leaseOne(ACTIVITIES);
    redrive.completeWithResult(again.token(), "{\"ok\":true}");
    assertThat(workflows().readInbox(ID))
        .as("its link pending again: the result reaches the instance")
        .singleElement()
        .satisfies(r -> assertThat(r.data()).contains("\"result\":{\"ok\":true}"));
  }

  @Test
  void retry_notFailedOrForeignActivity_isRefusedAndChangesNothing() {
    String activity = failedWithAPoisonedActivity();
    start("pending-one", NAME);
    HistoryRow first = new HistoryRow(1, 1, "ORCHESTRATION_RETRIED", null, null, "{}", 1, now());
    assertThatThrownBy(
            () ->
                workflows()
                    .retryInstance(
                        new RetryInstanceParams(
                            "pending-one", first, List.of(), List.of(), "ada", null, now())))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("PENDING")
        .satisfies(
            e ->
                assertThat(((ConflictException) e).code()).isEqualTo(ConflictException.NOT_FAILED));

    createQueue(QUEUE);
    String foreign = enqueueAndKill(QUEUE);
    int stored = workflows().readHistory(ID, 1).size();
    HistoryRow next =
        new HistoryRow(1, stored + 1, "ORCHESTRATION_RETRIED", null, null, "{}", 3, now());
    assertThatThrownBy(
            () ->
                workflows()
                    .retryInstance(
                        new RetryInstanceParams(
                            ID, next, List.of(), List.of(activity, foreign), "ada", null, now())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(foreign);

    assertThat(workflows().findInstance(ID).orElseThrow().status()).isEqualTo(Status.FAILED);
    assertThat(workflows().readHistory(ID, 1)).hasSize(stored);
    assertThat(message(activity).state()).isEqualTo(MessageState.DEAD);
    assertThat(message(foreign).state()).isEqualTo(MessageState.DEAD);
  }

  // ---- delete ----

  @Test
  void deleteTree_refusesAChildAndARunningTree_thenDeletesEverythingOfIt() {
    start(ID, NAME);
    String activity = MessageIds.next(clock);
    commit(
        leaseTurnOf(ID),
        Status.RUNNING,
        List.of(timer(ID, 2)),
        List.of(new ChildStart(ID + "::sub::1", "pack", null, null, 1, null)),
        List.of(
            new ActivityStart(
                new EnqueueParams.Entry(
                    activity, NewMessage.builder(ACTIVITIES, "charge").payload("{}").build()),
                3,
                "charge",
                0)));
    start("unrelated", NAME);

    assertThatThrownBy(() -> workflows().deleteInstanceTree(ID + "::sub::1", true))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining(ID)
        .satisfies(
            e -> assertThat(((ConflictException) e).code()).isEqualTo(ConflictException.NOT_ROOT));
    assertThatThrownBy(() -> workflows().deleteInstanceTree(ID, false))
        .isInstanceOf(ConflictException.class)
        .satisfies(
            e ->
                assertThat(((ConflictException) e).code())
                    .isEqualTo(ConflictException.TREE_RUNNING));
    assertThat(workflows().findInstance(ID)).isPresent();

    var deleted = workflows().deleteInstanceTree(ID, true);

    assertThat(deleted.instances()).isEqualTo(2);
    assertThat(deleted.messages()).isEqualTo(1);
    assertThat(workflows().findInstance(ID)).isEmpty();
    assertThat(workflows().findInstance(ID + "::sub::1")).isEmpty();
    assertThat(workflows().readHistory(ID, null)).isEmpty();
    assertThat(workflows().readInbox(ID)).isEmpty();
    assertThat(workflows().readInbox(ID + "::sub::1")).isEmpty();
    assertThat(workflows().listExecutions(ID)).isEmpty();
    assertThat(messagesIn(ACTIVITIES)).isEmpty();
    assertThat(workflows().findInstance("unrelated")).isPresent();
    assertThat(workflows().nextDueAt(now())).as("only the unrelated START waits").contains(now());
    assertThatThrownBy(() -> workflows().deleteInstanceTree(ID, true))
        .isInstanceOf(InstanceNotFoundException.class);
  }

  @Test
  void deleteTree_ofAnEndedInstance_needsNoForce() {
    start(ID, NAME);
    commit(leaseTurnOf(ID), Status.COMPLETED);

    assertThat(workflows().deleteInstanceTree(ID, false).instances()).isEqualTo(1);
    assertThat(workflows().findInstance(ID)).isEmpty();
  }
}
