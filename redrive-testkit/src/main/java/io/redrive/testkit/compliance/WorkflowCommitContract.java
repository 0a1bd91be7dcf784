package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.StoreException;
import io.redrive.error.TurnLostException;
import io.redrive.message.Message;
import io.redrive.message.MessageIds;
import io.redrive.message.NewMessage;
import io.redrive.store.CreateQueueParams;
import io.redrive.store.EnqueueParams;
import io.redrive.store.workflow.AbandonTurnParams;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.ActivityStart;
import io.redrive.store.workflow.CommitTurnParams.ChildStart;
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
import io.redrive.testkit.fault.StatementFailingDataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Committing workflow turns (docs/workflows.md), run unchanged on every store: a commit writes the
 * whole turn or, with a lost token, a gap in the history or a failure at any of its statements,
 * nothing; what a commit leaves for the next lease (the store halves of duroxide's D-3, D-7 and
 * D-25).
 */
public abstract class WorkflowCommitContract extends ComplianceTestBase {
  private static final String ID = "order-42";
  private static final String NAME = "ship-order";
  private static final String INPUT = "{\"order\":42}";
  private static final String NODE = "node-1";
  private static final String ACTIVITIES = "wf.activities";
  private static final Duration TURN_LEASE = Duration.ofSeconds(15);
  private static final Duration TIMER = Duration.ofMinutes(1);

  private WorkflowStore workflows() {
    return (WorkflowStore) store;
  }

  @BeforeEach
  void createActivityQueue() {
    store.createQueue(new CreateQueueParams(ACTIVITIES, defaults(), true, now()));
  }

  private void start(String id) {
    workflows()
        .startInstance(new StartInstanceParams(id, NAME, null, INPUT, null, IfExists.FAIL, now()));
  }

  private Optional<TurnLease> leaseTurn() {
    return workflows().leaseTurn(new LeaseTurnParams(NODE, TURN_LEASE, 100, now()));
  }

  private TurnLease leaseTurnOf(String id) {
    TurnLease t = leaseTurn().orElseThrow(() -> new AssertionError("nothing leased"));
    assertThat(t.instance().id()).isEqualTo(id);
    return t;
  }

  private HistoryRow event(int eventId, String kind, Long seq, String data) {
    return new HistoryRow(1, eventId, kind, seq, null, data, 1, now());
  }

  private static List<Long> seqs(List<InboxRow> rows) {
    return rows.stream().map(InboxRow::seq).toList();
  }

  /**
   * The first turn of {@link #ID}: started, an activity, a timer and a child scheduled, the START
   * row consumed.
   */
  private CommitTurnParams firstTurn(TurnLease t, String activityId) {
    return new CommitTurnParams(
        ID,
        t.token(),
        new InstanceUpdate(Status.RUNNING, 1, "1.0", INPUT, null, null, "shipping"),
        List.of(
            new ExecutionRow(
                1, NAME, "1.0", ExecutionRow.Status.RUNNING, INPUT, null, now(), null, 1)),
        List.of(
            event(1, "ORCHESTRATION_STARTED", null, "{\"name\":\"ship-order\"}"),
            event(2, "TURN_STARTED", null, "{\"turn\":1}"),
            event(3, "ACTIVITY_SCHEDULED", 1L, "{\"name\":\"charge-card\"}"),
            event(4, "TIMER_CREATED", 2L, "{\"fireAt\":60000}"),
            event(5, "CHILD_SCHEDULED", 3L, "{\"name\":\"pack\"}")),
        seqs(t.batch()),
        List.of(timer(ID, 2)),
        List.of(new ChildStart(ID + "::sub::3", "pack", "2.0", "{\"items\":3}", 3, null)),
        List.of(activity(activityId, 1)),
        now());
  }

  /** {@code p} with another history. */
  private static CommitTurnParams withHistory(CommitTurnParams p, List<HistoryRow> history) {
    return new CommitTurnParams(
        p.instanceId(),
        p.token(),
        p.instance(),
        p.executions(),
        history,
        p.inboxDeletes(),
        p.inboxInserts(),
        p.children(),
        p.activities(),
        p.now());
  }

  private NewInboxRow timer(String id, long seq) {
    return new NewInboxRow(id, 1, "TIMER_FIRED", seq, null, null, now().plus(TIMER), null);
  }

  private ActivityStart activity(String messageId, long seq) {
    return new ActivityStart(
        new EnqueueParams.Entry(
            messageId,
            NewMessage.builder(ACTIVITIES, "charge-card").payload("{\"cents\":1200}").build()),
        seq,
        "charge-card",
        0);
  }

  private String newMessageId() {
    return MessageIds.next(clock);
  }

  /** A turn that only consumes its batch and appends one event per row, from {@code first}. */
  private CommitTurnParams consuming(TurnLease t, Status status, List<NewInboxRow> inserts) {
    int first = t.history().size() + 1;
    List<HistoryRow> events = new ArrayList<>();
    for (int i = 0; i < t.batch().size(); i++) {
      events.add(event(first + i, "APPLIED", null, "{\"seq\":" + t.batch().get(i).seq() + "}"));
    }
    return new CommitTurnParams(
        t.instance().id(),
        t.token(),
        new InstanceUpdate(status, 1, "1.0", INPUT, null, null, null),
        List.of(),
        events,
        seqs(t.batch()),
        inserts,
        List.of(),
        List.of(),
        now());
  }

  // ---- a whole turn ----

  @Test
  void commit_firstTurn_writesTheWholeTurn() {
    start(ID);
    TurnLease t = leaseTurnOf(ID);
    String activityId = newMessageId();

    workflows().commitTurn(firstTurn(t, activityId));

    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.status()).isEqualTo(Status.RUNNING);
    assertThat(i.version()).isEqualTo("1.0");
    assertThat(i.customStatus()).isEqualTo("shipping");
    assertThat(i.turnAttempt()).as("a commit ends the count").isZero();
    assertThat(i.leasedBy()).isNull();
    assertThat(i.leaseExpiresAt()).isNull();
    assertThat(i.completedAt()).isNull();
    assertThat(i.historyEvents()).isEqualTo(5);
    assertThat(i.historyBytes()).isEqualTo(firstTurn(t, activityId).historyBytes()).isPositive();
    assertThat(workflows().listExecutions(ID))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.status()).isEqualTo(ExecutionRow.Status.RUNNING);
              assertThat(e.version()).isEqualTo("1.0");
              assertThat(e.input()).isEqualTo(INPUT);
              assertThat(e.startedAt()).isEqualTo(now());
            });
    List<HistoryRow> history = workflows().readHistory(ID, 1);
    assertThat(history).extracting(HistoryRow::eventId).containsExactly(1, 2, 3, 4, 5);
    assertThat(history.get(2).kind()).isEqualTo("ACTIVITY_SCHEDULED");
    assertThat(history.get(2).seq()).isEqualTo(1L);
    assertThat(workflows().readInbox(ID))
        .as("the START row consumed, the timer waiting")
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo("TIMER_FIRED");
              assertThat(r.refSeq()).isEqualTo(2L);
              assertThat(r.visibleAt()).isEqualTo(now().plus(TIMER));
            });
    InstanceRow child = workflows().findInstance(ID + "::sub::3").orElseThrow();
    assertThat(child.status()).isEqualTo(Status.PENDING);
    assertThat(child.name()).isEqualTo("pack");
    assertThat(child.requestedVersion()).isEqualTo("2.0");
    assertThat(child.parentId()).isEqualTo(ID);
    assertThat(child.parentExecution()).isEqualTo(1);
    assertThat(child.parentSeq()).isEqualTo(3L);
    assertThat(child.rootId()).isEqualTo(ID);
    assertThat(workflows().readInbox(child.id()))
        .extracting(InboxRow::kind)
        .containsExactly("START");
    Message m = message(activityId);
    assertThat(m.queue()).isEqualTo(ACTIVITIES);
    assertThat(m.type()).isEqualTo("charge-card");
    assertThat(m.payload()).isEqualTo("{\"cents\":1200}");
  }

  @Test
  void commit_nextTurn_continuesTheHistoryAndTheCounters() {
    start(ID);
    TurnLease first = leaseTurnOf(ID);
    workflows().commitTurn(firstTurn(first, newMessageId()));
    workflows().commitTurn(consuming(leaseTurnOf(ID + "::sub::3"), Status.RUNNING, List.of()));
    assertThat(leaseTurn()).as("the timer is not due yet").isEmpty();

    advance(TIMER);
    TurnLease second = leaseTurnOf(ID);
    assertThat(second.attempt()).isEqualTo(1);
    assertThat(second.history()).extracting(HistoryRow::eventId).containsExactly(1, 2, 3, 4, 5);
    assertThat(second.batch()).extracting(InboxRow::kind).containsExactly("TIMER_FIRED");
    assertThat(second.turns()).isEmpty();
    CommitTurnParams commit = consuming(second, Status.RUNNING, List.of());
    workflows().commitTurn(commit);

    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.historyEvents()).isEqualTo(6);
    assertThat(i.historyBytes())
        .isEqualTo(firstTurn(first, "x").historyBytes() + commit.historyBytes());
    assertThat(workflows().readHistory(ID, null)).hasSize(6);
    assertThat(workflows().readInbox(ID)).isEmpty();
  }

  @Test
  void commit_terminal_endsTheInboxAndCancelsActivitiesNoWorkerTook() {
    start(ID);
    String one = newMessageId();
    String two = newMessageId();
    TurnLease t = leaseTurnOf(ID);
    CommitTurnParams first = firstTurn(t, one);
    workflows().commitTurn(first.withWork(List.of(), List.of(activity(one, 1), activity(two, 4))));
    String taken = leaseOne(ACTIVITIES).id();
    String waiting = taken.equals(one) ? two : one;
    // A second turn, due by an event another instance's turn sends in.
    start("sender");
    workflows()
        .commitTurn(
            consuming(
                leaseTurnOf("sender"),
                Status.RUNNING,
                List.of(
                    new NewInboxRow(ID, null, "EVENT_RAISED", null, "cancel", "{}", now(), null))));
    TurnLease last = leaseTurnOf(ID);

    workflows()
        .commitTurn(
            new CommitTurnParams(
                ID,
                last.token(),
                new InstanceUpdate(Status.COMPLETED, 1, "1.0", INPUT, "{\"ok\":true}", null, null),
                List.of(
                    new ExecutionRow(
                        1,
                        NAME,
                        "1.0",
                        ExecutionRow.Status.COMPLETED,
                        INPUT,
                        "{\"ok\":true}",
                        now(),
                        now(),
                        1)),
                List.of(event(6, "ORCHESTRATION_COMPLETED", null, "{\"output\":{\"ok\":true}}")),
                seqs(last.batch()),
                List.of(),
                List.of(),
                List.of(),
                now()));

    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.status()).isEqualTo(Status.COMPLETED);
    assertThat(i.output()).isEqualTo("{\"ok\":true}");
    assertThat(i.completedAt()).isEqualTo(now());
    assertThat(workflows().listExecutions(ID))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.status()).isEqualTo(ExecutionRow.Status.COMPLETED);
              assertThat(e.output()).isEqualTo("{\"ok\":true}");
              assertThat(e.endedAt()).isEqualTo(now());
            });
    assertThat(workflows().readInbox(ID)).as("the pending timer went with it").isEmpty();
    assertThat(store.findMessage(new io.redrive.store.FindMessageParams(waiting, now())))
        .as("no worker had taken it: cancelled")
        .isEmpty();
    assertThat(message(taken).state())
        .as("a worker holds it: it runs to its end")
        .isEqualTo(io.redrive.message.MessageState.LEASED);
  }

  // ---- only the token's holder commits ----

  @Test
  void commit_staleToken_isLeaseLostAndWritesNothing() {
    start(ID);
    TurnLease stale = leaseTurnOf(ID);
    workflows()
        .abandonTurn(
            new AbandonTurnParams(
                ID, stale.token(), Duration.ZERO, false, "NODE_ERROR", null, null, now()));
    TurnLease current = leaseTurnOf(ID);
    String activityId = newMessageId();

    assertThatThrownBy(() -> workflows().commitTurn(firstTurn(stale, activityId)))
        .isInstanceOf(TurnLostException.class)
        .hasMessageContaining(ID)
        .satisfies(e -> assertThat(((TurnLostException) e).code()).isEqualTo("LEASE_LOST"));

    assertNothingCommitted(current, activityId);
  }

  @Test
  void commit_lateFromANodeWhoseLeaseRanOut_writesNothing_andTheNewTokenCommits() {
    start(ID);
    TurnLease late = leaseTurnOf(ID);
    advance(TURN_LEASE);
    TurnLease current =
        workflows().leaseTurn(new LeaseTurnParams("node-2", TURN_LEASE, 100, now())).orElseThrow();
    String lateActivity = newMessageId();

    assertThatThrownBy(() -> workflows().commitTurn(firstTurn(late, lateActivity)))
        .isInstanceOf(TurnLostException.class);
    assertNothingCommitted(current, lateActivity);
    assertThat(current.attempt()).as("D-3: the expired try counted").isEqualTo(2);

    workflows().commitTurn(firstTurn(current, newMessageId()));
    assertThat(workflows().findInstance(ID).orElseThrow().status()).isEqualTo(Status.RUNNING);
    assertThat(workflows().readHistory(ID, 1)).hasSize(5);
  }

  @Test
  void commit_afterItsLeaseRanOut_evenUntakenOver_writesNothing_andTheTryCounts() {
    start(ID);
    TurnLease late = leaseTurnOf(ID);
    String activityId = newMessageId();
    advance(TURN_LEASE); // the lease runs out at its expiry; no other node has leased yet

    assertThatThrownBy(() -> workflows().commitTurn(firstTurn(late, activityId)))
        .isInstanceOf(TurnLostException.class);
    assertThatThrownBy(
            () ->
                workflows()
                    .renewTurn(
                        new io.redrive.store.workflow.RenewTurnParams(
                            ID, late.token(), TURN_LEASE, now())))
        .isInstanceOf(TurnLostException.class);

    assertNothingCommitted(late, activityId);
    TurnLease next = leaseTurnOf(ID);
    assertThat(next.attempt()).as("the hung turn's try counted").isEqualTo(2);
    assertThat(next.turns()).extracting(TurnRow::outcome).containsExactly("LEASE_EXPIRED");
  }

  @Test
  void commit_historyNotContinuingTheStoredOne_isRefusedAndWritesNothing() {
    start(ID);
    TurnLease t = leaseTurnOf(ID);
    CommitTurnParams first = firstTurn(t, newMessageId());
    String activityId = first.activities().get(0).message().id();
    List<HistoryRow> gap =
        first.history().stream()
            .map(
                e ->
                    new HistoryRow(
                        e.executionId(),
                        e.eventId() + 1,
                        e.kind(),
                        e.seq(),
                        e.name(),
                        e.data(),
                        e.turn(),
                        e.at()))
            .toList();

    assertThatThrownBy(() -> workflows().commitTurn(withHistory(first, gap)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("history")
        .hasMessageContaining("next must be 1");

    assertNothingCommitted(t, activityId);
    workflows().commitTurn(first);
    assertThat(workflows().readHistory(ID, 1)).hasSize(5);
  }

  @Test
  void commit_failureAtEachStatement_writesNothing() {
    AtomicReference<StatementFailingDataSource> faults = new AtomicReference<>();
    WorkflowStore failing =
        (WorkflowStore)
            db.openStore(
                base -> {
                  faults.set(new StatementFailingDataSource(base));
                  return faults.get();
                });
    start(ID);
    TurnLease t = leaseTurnOf(ID);
    CommitTurnParams commit = firstTurn(t, newMessageId());
    String activityId = commit.activities().get(0).message().id();

    int failed = 0;
    for (int n = 1; ; n++) {
      faults.get().failAt(n);
      try {
        failing.commitTurn(commit);
        break; // n is past the commit's last statement: it went through whole
      } catch (StoreException e) {
        assertThat(e).hasMessageContaining("injected by the test");
        failed++;
        assertNothingCommitted(t, activityId);
      }
    }
    faults.get().disarm();

    assertThat(failed)
        .as("the commit's statements, each failed once (checks, instance, history, ...)")
        .isGreaterThanOrEqualTo(8);
    assertThat(workflows().readHistory(ID, 1)).hasSize(5);
    assertThat(workflows().readInbox(ID))
        .as("written once, by the commit that went through")
        .extracting(InboxRow::kind)
        .containsExactly("TIMER_FIRED");
    assertThat(workflows().readInbox(ID + "::sub::3")).hasSize(1);
    assertThat(messagesIn(ACTIVITIES)).extracting(Message::id).containsExactly(activityId);
  }

  /** The instance is as {@code held} leased it and nothing of a commit exists. */
  private void assertNothingCommitted(TurnLease held, String activityId) {
    InstanceRow i = workflows().findInstance(ID).orElseThrow();
    assertThat(i.status()).isEqualTo(Status.PENDING);
    assertThat(i.turnAttempt()).isEqualTo(held.attempt());
    assertThat(i.leasedBy()).isEqualTo(held.instance().leasedBy());
    assertThat(i.historyEvents()).isZero();
    assertThat(i.customStatus()).isNull();
    assertThat(workflows().readHistory(ID, null)).isEmpty();
    assertThat(workflows().listExecutions(ID)).isEmpty();
    assertThat(workflows().readInbox(ID)).extracting(InboxRow::kind).containsExactly("START");
    assertThat(workflows().findInstance(ID + "::sub::3")).isEmpty();
    assertThat(store.findMessage(new io.redrive.store.FindMessageParams(activityId, now())))
        .isEmpty();
    assertThat(messagesIn(ACTIVITIES)).isEmpty();
  }

  // ---- what a commit sends elsewhere ----

  @Test
  void commit_childWithATakenId_leavesItAndAnswersTheParentWhenAskedTo() {
    start(ID);
    start("taken");
    start("also-taken");
    TurnLease t = leaseTurnOf(ID);

    workflows()
        .commitTurn(
            new CommitTurnParams(
                ID,
                t.token(),
                new InstanceUpdate(Status.RUNNING, 1, "1.0", INPUT, null, null, null),
                List.of(),
                List.of(),
                seqs(t.batch()),
                List.of(),
                List.of(
                    new ChildStart("taken", "pack", null, null, 7, "{\"error\":\"exists\"}"),
                    new ChildStart("also-taken", "pack", null, null, 8, null)),
                List.of(),
                now()));

    assertThat(workflows().findInstance("taken").orElseThrow().parentId())
        .as("the existing instance stands")
        .isNull();
    assertThat(workflows().readInbox(ID))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo("CHILD_RESULT");
              assertThat(r.refSeq()).isEqualTo(7L);
              assertThat(r.data()).isEqualTo("{\"error\":\"exists\"}");
              assertThat(r.executionId()).isEqualTo(1);
            });
  }

  @Test
  void commit_inboxRows_forAMissingInstanceOrATakenDedupeKey_areDropped() {
    start(ID);
    start("parent");
    TurnLease t = leaseTurnOf(ID);

    workflows()
        .commitTurn(
            consuming(
                t,
                Status.RUNNING,
                List.of(
                    new NewInboxRow("parent", 2, "CHILD_RESULT", 5L, NAME, "{}", now(), "child-5"),
                    new NewInboxRow("parent", 2, "CHILD_RESULT", 5L, NAME, "{}", now(), "child-5"),
                    new NewInboxRow(
                        "deleted-parent", null, "CHILD_RESULT", 5L, NAME, "{}", now(), null))));

    assertThat(workflows().readInbox("parent"))
        .extracting(InboxRow::kind)
        .containsExactly("START", "CHILD_RESULT");
    assertThat(workflows().readInbox("deleted-parent")).isEmpty();
  }

  @Test
  void commit_activityOutsideAWorkflowOwnedQueue_isRefusedAndWritesNothing() {
    createQueue(QUEUE);
    start(ID);
    TurnLease t = leaseTurnOf(ID);
    CommitTurnParams first = firstTurn(t, newMessageId());
    String activityId = newMessageId();
    for (String queue : List.of(QUEUE, "no-such-queue")) {
      CommitTurnParams plain =
          first.withWork(
              first.children(),
              List.of(
                  new ActivityStart(
                      new EnqueueParams.Entry(
                          activityId, NewMessage.builder(queue, "charge-card").build()),
                      1,
                      "charge-card",
                      0)));

      assertThatThrownBy(() -> workflows().commitTurn(plain))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(queue);
      assertNothingCommitted(t, activityId);
    }
    assertThat(messagesIn(QUEUE)).isEmpty();
  }

  // ---- what the next lease sees ----

  @Test
  void batchThatGrewWhileLeased_reportsTheHigherCount() {
    start(ID);
    start("sender");
    TurnLease first = leaseTurnOf(ID);
    assertThat(first.batch()).hasSize(1);
    // While ID's turn runs, another instance's turn sends it an event.
    workflows()
        .commitTurn(
            consuming(
                leaseTurnOf("sender"),
                Status.RUNNING,
                List.of(new NewInboxRow(ID, null, "EVENT_RAISED", null, "go", "{}", now(), null))));
    workflows()
        .abandonTurn(
            new AbandonTurnParams(
                ID, first.token(), Duration.ZERO, false, "NODE_ERROR", null, null, now()));

    TurnLease second = leaseTurnOf(ID);

    assertThat(second.batch()).extracting(InboxRow::kind).containsExactly("START", "EVENT_RAISED");
    assertThat(second.attempt())
        .as("D-7: the grown batch reports the count its oldest row has")
        .isEqualTo(2);
  }

  @Test
  void rowsArrivingDuringATurn_stayForTheNextOne() {
    start(ID);
    start("sender");
    TurnLease t = leaseTurnOf(ID);
    workflows()
        .commitTurn(
            consuming(
                leaseTurnOf("sender"),
                Status.RUNNING,
                List.of(new NewInboxRow(ID, null, "EVENT_RAISED", null, "go", "{}", now(), null))));

    workflows().commitTurn(consuming(t, Status.RUNNING, List.of()));

    TurnLease next = leaseTurnOf(ID);
    assertThat(next.batch()).extracting(InboxRow::kind).containsExactly("EVENT_RAISED");
    assertThat(next.attempt()).isEqualTo(1);
  }

  @Test
  void unreadableHistoryRow_stillLeasesAndCounts() {
    start(ID);
    TurnLease t = leaseTurnOf(ID);
    workflows()
        .commitTurn(
            new CommitTurnParams(
                ID,
                t.token(),
                new InstanceUpdate(Status.RUNNING, 1, null, INPUT, null, null, null),
                List.of(),
                List.of(
                    event(1, "ORCHESTRATION_STARTED", null, "{\"name\":"),
                    event(2, "TURN_STARTED", null, "not json at all {")),
                seqs(t.batch()),
                List.of(timer(ID, 1)),
                List.of(),
                List.of(),
                now()));
    advance(TIMER);

    for (int attempt = 1; attempt <= 3; attempt++) {
      TurnLease again = leaseTurnOf(ID);
      assertThat(again.attempt()).as("D-25: try %d counted", attempt).isEqualTo(attempt);
      assertThat(again.history())
          .extracting(HistoryRow::data)
          .as("returned as stored; parsing is the runtime's")
          .containsExactly("{\"name\":", "not json at all {");
      workflows()
          .abandonTurn(
              new AbandonTurnParams(
                  ID,
                  again.token(),
                  Duration.ZERO,
                  false,
                  "HISTORY_UNREADABLE",
                  "HISTORY_UNREADABLE",
                  "event 1",
                  now()));
    }
  }

  @Test
  void lease_carriesTheTurnRowsSinceTheLastCommit() {
    start(ID);
    TurnLease first = leaseTurnOf(ID);
    workflows()
        .abandonTurn(
            new AbandonTurnParams(
                ID,
                first.token(),
                Duration.ZERO,
                false,
                "UNREGISTERED",
                "UNREGISTERED",
                "ship-order is not registered",
                now()));
    leaseTurnOf(ID);
    advance(TURN_LEASE);

    TurnLease third = leaseTurnOf(ID);

    assertThat(third.turns())
        .extracting(TurnRow::outcome, TurnRow::attempt, TurnRow::node)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("UNREGISTERED", 1, NODE),
            org.assertj.core.groups.Tuple.tuple("LEASE_EXPIRED", 2, NODE));
    assertThat(third.turns().get(0).message()).isEqualTo("ship-order is not registered");
    assertThat(third.turns().get(1).endedAt()).isEqualTo(now());
    workflows().commitTurn(consuming(third, Status.RUNNING, List.of(timer(ID, 1))));
    advance(TIMER);
    assertThat(leaseTurnOf(ID).turns()).as("a commit starts the list afresh").isEmpty();
  }

  // ---- many turns at once ----

  @Test
  void turns_eightThreadsOnThreeNodes_rowsArrivingDuringTurns_eachAppliedOnceInContiguousHistories()
      throws Exception {
    int instanceCount = 200;
    int sent = 600;
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < instanceCount; i++) {
      ids.add("instance-" + i);
      start(ids.get(i));
    }
    List<WorkflowStore> nodes =
        List.of(workflows(), (WorkflowStore) db.openStore(), (WorkflowStore) db.openStore());
    Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    AtomicInteger twice = new AtomicInteger();
    AtomicInteger toSend = new AtomicInteger(sent);
    AtomicInteger applied = new AtomicInteger();
    AtomicInteger turns = new AtomicInteger();
    int expected = instanceCount + sent;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        WorkflowStore node = nodes.get(t % nodes.size());
        String nodeId = "node-" + t;
        Random random = new Random(20261126L + t);
        runs.add(
            pool.submit(
                () -> {
                  while (applied.get() < expected && System.nanoTime() < deadline) {
                    Optional<TurnLease> lease =
                        node.leaseTurn(new LeaseTurnParams(nodeId, TURN_LEASE, 100, now()));
                    if (lease.isEmpty()) {
                      Thread.yield(); // every instance with rows is held this instant
                      continue;
                    }
                    TurnLease turn = lease.get();
                    String id = turn.instance().id();
                    AtomicInteger held = inFlight.computeIfAbsent(id, k -> new AtomicInteger());
                    if (held.incrementAndGet() > 1) {
                      twice.incrementAndGet();
                    }
                    // The turn's work, done while no other turn may hold the instance; the lease
                    // is free again once the commit or abandon below returns.
                    List<NewInboxRow> sends = new ArrayList<>();
                    for (int k = 0; k < 2 && toSend.getAndDecrement() > 0; k++) {
                      String to = ids.get(random.nextInt(instanceCount));
                      sends.add(
                          new NewInboxRow(
                              to, null, "EVENT_RAISED", null, "ping", "{}", now(), null));
                    }
                    Thread.yield(); // widens the window another lease would show in
                    held.decrementAndGet();
                    if (turns.incrementAndGet() % 5 == 0 && sends.isEmpty()) {
                      // Some turns end without a commit: their rows wait for the next one.
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
                      continue;
                    }
                    node.commitTurn(consuming(turn, Status.RUNNING, sends));
                    applied.addAndGet(turn.batch().size());
                  }
                  return null;
                }));
      }
      for (Future<?> run : runs) {
        run.get(3, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(twice.get()).as("an instance leased by two turns at once").isZero();
    assertThat(applied.get()).as("every row applied (within the deadline)").isEqualTo(expected);
    List<String> appliedSeqs = new ArrayList<>();
    for (String id : ids) {
      List<HistoryRow> history = workflows().readHistory(id, 1);
      for (int e = 0; e < history.size(); e++) {
        assertThat(history.get(e).eventId()).as("contiguous history of %s", id).isEqualTo(e + 1);
        appliedSeqs.add(history.get(e).data());
      }
      assertThat(workflows().readInbox(id)).as("nothing left waiting in %s", id).isEmpty();
      InstanceRow row = workflows().findInstance(id).orElseThrow();
      assertThat(row.historyEvents()).isEqualTo(history.size());
      assertThat(row.leasedBy()).isNull();
    }
    assertThat(appliedSeqs)
        .as("each inbox row applied exactly once")
        .hasSize(expected)
        .doesNotHaveDuplicates();
  }

  // ---- bad input ----

  @Test
  void commitParams_badInput_isRejectedNamingTheProblem() {
    assertThatThrownBy(() -> new InstanceUpdate(Status.PENDING, 1, null, null, null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PENDING");
    assertThatThrownBy(() -> new InstanceUpdate(Status.RUNNING, 0, null, null, null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("executionId");
    InstanceUpdate running = new InstanceUpdate(Status.RUNNING, 1, null, null, null, null, null);
    assertThatThrownBy(
            () ->
                new CommitTurnParams(
                    ID,
                    "t",
                    running,
                    List.of(),
                    List.of(event(1, "A", null, "{}"), event(3, "B", null, "{}")),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("contiguous");
    assertThatThrownBy(
            () ->
                new CommitTurnParams(
                    ID,
                    "t",
                    running,
                    List.of(),
                    List.of(new HistoryRow(2, 1, "A", null, null, "{}", 1, now())),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    now()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("execution 2");
    assertThatThrownBy(() -> new NewInboxRow(ID, null, "WAKE_UP", null, null, null, now(), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kind")
        .hasMessageContaining("WAKE_UP");
    assertThatThrownBy(() -> new ChildStart(" ", NAME, null, null, 1, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instanceId");
  }

  @Test
  void commitTimes_areTheEnginesClock() {
    start(ID);
    TurnLease t = leaseTurnOf(ID);
    Instant committedAt = advance(Duration.ofSeconds(3));

    workflows().commitTurn(consuming(t, Status.RUNNING, List.of()));

    assertThat(workflows().findInstance(ID).orElseThrow().updatedAt()).isEqualTo(committedAt);
  }
}
