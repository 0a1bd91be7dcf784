package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.error.StoreException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.Message;
import io.redrive.message.MessageIds;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.CreateQueueParams;
import io.redrive.store.EnqueueParams;
import io.redrive.store.Store;
import io.redrive.store.workflow.ActivityResult;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.ActivityStart;
import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceParams.IfExists;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.testkit.fault.StatementFailingDataSource;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Activity messages in workflow-owned queues (docs/engine.md, docs/workflows.md), run unchanged on
 * every store: every end of such a message — a complete with or without a result, a failure, a
 * failure that gives up at once, poison at lease, a passed deadline — puts exactly one
 * ACTIVITY_RESULT row in its instance's inbox in the same transaction; a handler's result deletes
 * the message (the queue never retries it), a death no handler decided keeps it DEAD in place; an
 * abandon or an expired lease keeps its ordinary meaning.
 */
public abstract class ActivityResultContract extends ComplianceTestBase {
  private static final String ID = "order-42";
  private static final String ACTIVITIES = "wf.activities";
  private static final String RESULT = "{\"charged\":1200}";
  private static final Duration LEASE = Duration.ofSeconds(30);

  private WorkflowStore workflows() {
    return (WorkflowStore) store;
  }

  @BeforeEach
  void createActivityQueue() {
    // A dead-letter queue on purpose: an activity that dies without a handler's result stays in
    // place all the same.
    createQueue(DLQ);
    store.createQueue(
        new CreateQueueParams(
            ACTIVITIES,
            QueuePolicy.defaults()
                .withMaxAttempts(2)
                .withLeaseTimeout(LEASE)
                .withDeadLetter(DeadLetter.moveTo(DLQ)),
            true,
            now()));
  }

  /** Starts {@link #ID} and commits its first turn, which schedules one activity message. */
  private String scheduleActivity(NewMessage message) {
    workflows()
        .startInstance(
            new StartInstanceParams(ID, "ship-order", null, "{}", null, IfExists.FAIL, now()));
    TurnLease t =
        workflows().leaseTurn(new LeaseTurnParams("node-1", LEASE, 100, now())).orElseThrow();
    String id = MessageIds.next(clock);
    workflows()
        .commitTurn(
            new CommitTurnParams(
                ID,
                t.token(),
                new InstanceUpdate(Status.RUNNING, 1, "1.0", "{}", null, null, null),
                List.of(),
                List.of(),
                t.batch().stream().map(InboxRow::seq).toList(),
                List.of(),
                List.of(),
                List.of(new ActivityStart(new EnqueueParams.Entry(id, message), 7, "charge", 0)),
                now()));
    return id;
  }

  private String scheduleActivity() {
    return scheduleActivity(
        NewMessage.builder(ACTIVITIES, "charge").payload("{\"cents\":1200}").build());
  }

  /** The instance's one ACTIVITY_RESULT row (fails unless there is exactly one). */
  private InboxRow theResult() {
    List<InboxRow> inbox = workflows().readInbox(ID);
    assertThat(inbox).as("exactly one result in the inbox").hasSize(1);
    InboxRow row = inbox.get(0);
    assertThat(row.kind()).isEqualTo("ACTIVITY_RESULT");
    assertThat(row.refSeq()).as("the command it answers").isEqualTo(7L);
    assertThat(row.name()).isEqualTo("charge");
    assertThat(row.executionId()).isEqualTo(1);
    assertThat(row.visibleAt()).isEqualTo(now());
    return row;
  }

  private void assertGone(String id) {
    assertThat(store.findMessage(new io.redrive.store.FindMessageParams(id, now()))).isEmpty();
  }

  // ---- a handler's result ends the message ----

  @Test
  void completeWithResult_inAQueueThatKeepsCompletedMessages_keepsItsStory() {
    redrive =
        io.redrive.Redrive.builder(store)
            .clock(clock)
            .completedRetention(Duration.ofHours(1))
            .build();
    String id = scheduleActivity();
    LeasedMessage first = leaseOne(ACTIVITIES);
    redrive.abandon(
        new io.redrive.lease.AbandonRequest(first.token(), Duration.ZERO, false, "handing over"));
    LeasedMessage m = leaseOne(ACTIVITIES);

    redrive.completeWithResult(m.token(), RESULT);

    io.redrive.message.Message kept =
        store.findMessage(new io.redrive.store.FindMessageParams(id, now())).orElseThrow();
    assertThat(kept.state()).isEqualTo(MessageState.COMPLETED);
    assertThat(kept.attempts()).isEqualTo(2);
    assertThat(kept.history())
        .extracting(e -> e.outcome())
        .endsWith(io.redrive.message.Outcome.COMPLETED)
        .hasSizeGreaterThan(1);
    assertThat(theResult().activityResult().result()).isEqualTo(RESULT);
    assertThat(stats(ACTIVITIES).total()).isZero();
  }

  @Test
  void completeWithResult_endsTheMessage_andTheInstanceGetsTheResult() {
    String id = scheduleActivity();
    LeasedMessage m = leaseOne(ACTIVITIES);

    SettleResult done = redrive.completeWithResult(m.token(), RESULT);

    assertThat(done.state()).isEqualTo(MessageState.COMPLETED);
    assertGone(id);
    InboxRow row = theResult();
    // The store reads the row it wrote: the runtime gets the record, never the JSON.
    ActivityResult read = row.activityResult();
    assertThat(read).isNotNull();
    assertThat(read.messageId()).isEqualTo(id);
    assertThat(read.outcome()).isEqualTo(ActivityResult.Outcome.COMPLETED);
    assertThat(read.attempts()).isEqualTo(1);
    assertThat(read.result()).isEqualTo(RESULT);
    assertThat(read.failure()).isNull();
    assertThat(read.story()).startsWith("[").contains("\"outcome\":\"COMPLETED\"");
    String data = row.data();
    assertThat(data)
        .contains("\"messageId\":\"" + id + "\"")
        .contains("\"outcome\":\"COMPLETED\"")
        .contains("\"result\":" + RESULT)
        .contains("\"attempt\":1")
        .doesNotContain("\"failure\"");
    assertThat(lease(ACTIVITIES, 10).leased()).isEmpty();
  }

  @Test
  void completeWithoutResult_stillTellsTheInstance() {
    String id = scheduleActivity();

    redrive.complete(leaseOne(ACTIVITIES).token());

    assertGone(id);
    assertThat(theResult().data()).contains("\"outcome\":\"COMPLETED\"").doesNotContain("result");
  }

  @Test
  void completeWithResult_failureAtEachStatement_endsTheActivityWholeOrNotAtAll() {
    completeFailingAtEachStatement(true);
  }

  @Test
  void completeWithoutResult_failureAtEachStatement_endsTheActivityWholeOrNotAtAll() {
    completeFailingAtEachStatement(false);
  }

  /**
   * Completes an activity message through a store whose n-th statement fails, for n = 1, 2, … until
   * the completion goes through: each failed try must leave the message leased and the instance
   * without a result (an activity that ends in several statements must end in one transaction, also
   * on the one-statement path of plain completions).
   */
  private void completeFailingAtEachStatement(boolean withResult) {
    AtomicReference<StatementFailingDataSource> faults = new AtomicReference<>();
    Store failingStore =
        db.openStore(
            base -> {
              faults.set(new StatementFailingDataSource(base));
              return faults.get();
            });
    Redrive failing = Redrive.builder(failingStore).clock(clock).build();
    try {
      String id = scheduleActivity();
      LeasedMessage m = leaseOne(ACTIVITIES);
      int failed = 0;
      for (int n = 1; ; n++) {
        faults.get().failAt(n);
        try {
          if (withResult) {
            failing.completeWithResult(m.token(), RESULT);
          } else {
            failing.complete(m.token());
          }
          break;
        } catch (StoreException e) {
          failed++;
          assertThat(store.findMessage(new io.redrive.store.FindMessageParams(id, now())))
              .as("statement %d failed: the message is still leased", n)
              .hasValueSatisfying(msg -> assertThat(msg.state()).isEqualTo(MessageState.LEASED));
          assertThat(workflows().readInbox(ID))
              .as("statement %d failed: no result reached the instance", n)
              .isEmpty();
        }
      }
      faults.get().disarm();
      assertThat(failed).as("the completion's statements, each failed once").isPositive();
      assertGone(id);
      assertThat(theResult().data()).contains("\"outcome\":\"COMPLETED\"");
    } finally {
      failing.close(); // closes its store
    }
  }

  @Test
  void completeAll_mixingPlainAndActivityMessages_endsEachTheWayItsQueueSays() {
    createQueue(QUEUE);
    String plain = enqueue(QUEUE);
    String activity = scheduleActivity();
    LeasedMessage p = leaseOne(QUEUE);
    LeasedMessage a = leaseOne(ACTIVITIES);

    var result = redrive.completeAll(List.of(p.token(), a.token()));

    assertThat(result.lost()).isEmpty();
    assertGone(plain);
    assertGone(activity);
    assertThat(theResult().data()).contains("\"outcome\":\"COMPLETED\"");
  }

  @Test
  void completeAgain_withTheSameToken_writesNoSecondResult() {
    scheduleActivity();
    LeasedMessage m = leaseOne(ACTIVITIES);
    redrive.completeWithResult(m.token(), RESULT);

    var again =
        redrive.settle(
            List.of(
                new io.redrive.lease.SettleCommand.Complete(
                    io.redrive.lease.LeaseToken.parse(m.token()), RESULT)));

    assertThat(again.get(0).settled() && !again.get(0).result().repeated())
        .as("answered as lost or as the repeat it is, never settled anew")
        .isFalse();
    theResult();
  }

  @Test
  void failWithAttemptsLeft_endsTheMessage_withTheFailureAndItsStory() {
    String id = scheduleActivity();
    LeasedMessage m = leaseOne(ACTIVITIES);

    SettleResult failed = failRetryAfter(m, Duration.ofSeconds(5));

    assertThat(failed.state()).isEqualTo(MessageState.DEAD);
    assertGone(id);
    ActivityResult read = theResult().activityResult();
    assertThat(read.outcome()).isEqualTo(ActivityResult.Outcome.FAILED);
    assertThat(read.failure().reason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(read.failure().retryable()).isTrue();
    assertThat(read.retryAfter()).isEqualTo(Duration.ofSeconds(5));
    assertThat(read.result()).isNull();
    assertThat(theResult().data())
        .contains("\"outcome\":\"FAILED\"")
        .contains("\"reason\":\"HANDLER_EXCEPTION\"")
        .contains("\"retryable\":true")
        .contains("\"retryAfterMs\":5000")
        .contains("\"attempts\":[{\"attempt\":1,\"outcome\":\"FAILED\"");
    assertThat(lease(ACTIVITIES, 10).leased()).as("the queue does not retry it").isEmpty();
  }

  @Test
  void failThatGivesUpAtOnce_endsTheMessage_asNotRetryable() {
    String id = scheduleActivity();

    failPermanently(leaseOne(ACTIVITIES));

    assertGone(id);
    assertThat(theResult().data())
        .contains("\"outcome\":\"FAILED\"")
        .contains("\"reason\":\"VALIDATION_FAILURE\"")
        .contains("\"retryable\":false");
  }

  // ---- deaths no handler decided keep the message ----

  @Test
  void poisonAtLease_keepsTheMessageDeadInPlace_andTellsTheInstance() {
    String id = scheduleActivity();
    for (int attempt = 1; attempt <= 2; attempt++) {
      assertThat(leaseOne(ACTIVITIES).attempt()).isEqualTo(attempt);
      advance(LEASE); // the worker died: no result
    }
    assertThat(workflows().readInbox(ID)).as("an expired lease is no result").isEmpty();

    assertThat(lease(ACTIVITIES, 10).poisoned()).containsExactly(id);

    Message dead = message(id);
    assertThat(dead.state()).isEqualTo(MessageState.DEAD);
    assertThat(dead.queue())
        .as("in place, whatever the queue's dead-letter setting")
        .isEqualTo(ACTIVITIES);
    assertThat(messagesIn(DLQ)).isEmpty();
    ActivityResult read = theResult().activityResult();
    assertThat(read.outcome()).isEqualTo(ActivityResult.Outcome.POISONED);
    assertThat(read.failure().reason()).isEqualTo(FailureReason.POISON);
    assertThat(read.failure().poisonedMessage()).contains("LEASE_EXPIRED");
    assertThat(theResult().data())
        .contains("\"outcome\":\"POISONED\"")
        .contains("\"reason\":\"POISON\"")
        .contains("\"poisonedMessage\":")
        .contains("LEASE_EXPIRED");
  }

  @Test
  void deadlinePassedAtLease_keepsTheMessageDeadInPlace_andTellsTheInstance() {
    String id =
        scheduleActivity(
            NewMessage.builder(ACTIVITIES, "charge")
                .payload("{}")
                .expireAfter(Duration.ofMinutes(1))
                .build());
    advance(Duration.ofMinutes(1));

    assertThat(lease(ACTIVITIES, 10).expired()).containsExactly(id);

    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
    assertThat(message(id).queue()).isEqualTo(ACTIVITIES);
    assertThat(theResult().data())
        .contains("\"outcome\":\"EXPIRED\"")
        .contains("\"reason\":\"EXPIRED\"");
  }

  @Test
  void deadlinePassedWhileLeased_theSweepKeepsItDeadInPlace_andTellsTheInstance() {
    String id =
        scheduleActivity(
            NewMessage.builder(ACTIVITIES, "charge")
                .payload("{}")
                .expireAfter(Duration.ofMinutes(1))
                .build());
    leaseOne(ACTIVITIES);
    advance(Duration.ofMinutes(1));

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
    assertThat(theResult().data()).contains("\"outcome\":\"EXPIRED\"");
  }

  // ---- no result: ordinary meaning ----

  @Test
  void abandonAndExpiredLeases_keepTheirMeaning_andTellNobody() {
    String id = scheduleActivity();
    LeasedMessage m = leaseOne(ACTIVITIES);

    redrive.abandon(
        new AbandonRequest(
            m.token(), Duration.ZERO, false, "not registered", FailureReason.UNREGISTERED_HANDLER));

    assertThat(message(id).state()).isEqualTo(MessageState.READY);
    assertThat(message(id).attempts()).as("counted").isEqualTo(1);
    assertThat(workflows().readInbox(ID)).isEmpty();
  }

  // ---- bad input ----

  @Test
  void completeWithResultThatIsNotJson_isRefusedAndChangesNothing() {
    String id = scheduleActivity();
    LeasedMessage m = leaseOne(ACTIVITIES);

    assertThatThrownBy(() -> redrive.completeWithResult(m.token(), "{\"charged\":"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("result")
        .hasMessageContaining("JSON");
    assertThatThrownBy(() -> redrive.completeWithResult(m.token(), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("result");

    assertThat(message(id).state()).isEqualTo(MessageState.LEASED);
    assertThat(workflows().readInbox(ID)).isEmpty();
    redrive.completeWithResult(m.token(), RESULT);
    theResult();
  }

  @Test
  void enqueueByHand_intoAWorkflowOwnedQueue_isRefusedNamingItAndChangesNothing() {
    createQueue(QUEUE);
    NewMessage byHand = NewMessage.builder(ACTIVITIES, "charge").payload("{}").build();

    assertThatThrownBy(() -> redrive.enqueue(byHand))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ACTIVITIES)
        .hasMessageContaining("workflow-owned");
    assertThatThrownBy(() -> redrive.enqueueBatch(List.of(newMessage(QUEUE).build(), byHand)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ACTIVITIES);
    assertThatThrownBy(
            () ->
                redrive.enqueue(
                    NewMessage.builder(ACTIVITIES, "charge").payload("{}").dedupeKey("k").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("workflow-owned");

    assertThat(messagesIn(ACTIVITIES)).isEmpty();
    assertThat(messagesIn(QUEUE)).isEmpty();
  }

  @Test
  void completeWithResult_onAPlainQueue_completesKeepingNoResult() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    SettleResult done = redrive.completeWithResult(leaseOne(QUEUE).token(), RESULT);

    assertThat(done.state()).isEqualTo(MessageState.COMPLETED);
    assertGone(id);
  }
}
