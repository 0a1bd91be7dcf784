package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.Lineage;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.message.SearchHit;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueueUpdate;
import io.redrive.store.FindMessageParams;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Completed messages keep their story for their queue's {@code completedRetention} (else the
 * engine's default): found by id in state COMPLETED with their attempts, worker, times, payload and
 * every attempt's history, listed apart newest first, followed from the id an enqueue returned, and
 * gone with their history once the retention ends. The completion window keeps its own meaning.
 */
public abstract class CompletedRetentionContract extends ComplianceTestBase {
  private static final Duration KEEP = Duration.ofHours(1);

  private Message find(String id) {
    return store.findMessage(new FindMessageParams(id, now())).orElse(null);
  }

  private List<Message> completedIn(String queue) {
    return redrive
        .listMessages(MessageQuery.all(queue).withStates(Set.of(MessageState.COMPLETED)))
        .messages();
  }

  private io.redrive.message.EnqueueResult enqueueKeyed(String key) {
    return redrive.enqueue(newMessage(QUEUE).dedupeKey(key).build());
  }

  @Test
  void aKeptCompletion_isFoundWithItsWholeStory() {
    createQueue(QUEUE, defaults().withCompletedRetention(KEEP));
    createQueue(OTHER);
    String id =
        enqueue(newMessage(QUEUE).dedupeKey("order-42").headers(Map.of("tenant", "t1")).build());
    LeasedMessage first = leaseOne(QUEUE);
    redrive.fail(
        FailRequest.of(first.token(), FailureReason.HANDLER_EXCEPTION, "smtp timeout")
            .withRetryAfter(Duration.ofSeconds(1)));
    advance(Duration.ofSeconds(2));
    LeasedMessage second = leaseOne(QUEUE);
    advance(Duration.ofSeconds(3));
    complete(second);

    Message m = find(id);
    assertThat(m).isNotNull();
    assertThat(m.state()).isEqualTo(MessageState.COMPLETED);
    assertThat(m.queue()).isEqualTo(QUEUE);
    assertThat(m.type()).isEqualTo(TYPE);
    assertThat(m.payload()).isEqualTo(PAYLOAD);
    assertThat(m.headers()).containsEntry("tenant", "t1");
    assertThat(m.dedupeKey()).isEqualTo("order-42");
    assertThat(m.attempts()).isEqualTo(2);
    assertThat(m.maxAttempts()).isEqualTo(defaults().maxAttempts());
    assertThat(m.leasedBy()).isEqualTo(WORKER);
    assertThat(m.completedAt()).isEqualTo(now());
    assertThat(m.lastError().message()).isEqualTo("smtp timeout");
    assertThat(m.history())
        .extracting(e -> e.outcome())
        .containsExactly(Outcome.FAILED, Outcome.COMPLETED);
    assertThat(last(m).attempt()).isEqualTo(2);
    assertThat(last(m).worker()).isEqualTo(WORKER);
    assertThat(last(m).settledAt()).isEqualTo(now());
    assertThat(redrive.search("order-42", List.of(QUEUE)))
        .containsExactly(
            new SearchHit(SearchHit.Match.DEDUPE_KEY, id, QUEUE, MessageState.COMPLETED));
    assertThat(redrive.search(id, List.of(QUEUE)))
        .containsExactly(new SearchHit(SearchHit.Match.ID, id, QUEUE, MessageState.COMPLETED));
    assertThat(redrive.search(id, List.of(OTHER))).as("another queue's message").isEmpty();
    assertThat(stats(QUEUE).total()).as("no longer in the queue").isZero();
    assertNothingLeasable(QUEUE);
  }

  @Test
  void aKeptCompletion_keepsItsPriorityAndLimitKey_butHoldsNoUniqueKey() {
    createQueue(QUEUE, defaults().withCompletedRetention(KEEP));
    String alone =
        enqueue(newMessage(QUEUE).priority(7).limitKey("tenant-a").uniqueKey("u-1").build());
    String batched = enqueue(newMessage(QUEUE).priority(3).limitKey("tenant-b").build());
    String plain = enqueue(QUEUE);
    complete(leaseOne(QUEUE)); // the priority-7 message, completed alone
    LeasedMessage b = leaseOne(QUEUE);
    LeasedMessage c = leaseOne(QUEUE);
    redrive.completeAll(List.of(b.token(), c.token()));

    assertThat(find(alone).priority()).isEqualTo(7);
    assertThat(find(alone).limitKey()).isEqualTo("tenant-a");
    assertThat(find(alone).uniqueKey()).as("held only while waiting").isNull();
    assertThat(find(batched).priority()).isEqualTo(3);
    assertThat(find(batched).limitKey()).isEqualTo("tenant-b");
    assertThat(find(plain).priority()).isZero();
    assertThat(find(plain).limitKey()).isNull();
    assertThat(completedIn(QUEUE))
        .extracting(Message::id, Message::priority, Message::limitKey)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(alone, 7, "tenant-a"),
            org.assertj.core.groups.Tuple.tuple(batched, 3, "tenant-b"),
            org.assertj.core.groups.Tuple.tuple(plain, 0, null));
  }

  @Test
  void aQueueThatKeepsNothing_forgetsAtOnce_asBefore() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    complete(leaseOne(QUEUE));

    assertThat(find(id)).isNull();
    assertThat(completedIn(QUEUE)).isEmpty();
  }

  @Test
  void theEnginesDefault_appliesToQueuesThatDoNotSay_andAQueuesZeroOverridesIt() {
    redrive = Redrive.builder(store).clock(clock).completedRetention(KEEP).build();
    createQueue(QUEUE);
    createQueue(OTHER, defaults().withCompletedRetention(Duration.ZERO));
    String kept = enqueue(QUEUE);
    String gone = enqueue(OTHER);
    LeasedMessage a = leaseOne(QUEUE);
    LeasedMessage b = leaseOne(OTHER);
    redrive.completeAll(List.of(a.token(), b.token())); // one batch, two queues

    assertThat(find(kept).state()).isEqualTo(MessageState.COMPLETED);
    assertThat(find(gone)).isNull();
  }

  @Test
  void completedMessages_areListedApart_newestFirst_pageByPage() {
    createQueue(QUEUE, defaults().withCompletedRetention(KEEP));
    createQueue(OTHER, defaults().withCompletedRetention(KEEP));
    List<String> ids = enqueueMany(QUEUE, 3);
    for (int i = 0; i < 3; i++) {
      advance(Duration.ofSeconds(1));
      complete(leaseOne(QUEUE));
    }
    enqueue(QUEUE); // still ready: not among the completed
    enqueue(OTHER);
    complete(leaseOne(OTHER));

    MessagePage page =
        redrive.listMessages(
            MessageQuery.all(QUEUE).withStates(Set.of(MessageState.COMPLETED)).withLimit(2));
    assertThat(page.messages()).extracting(Message::id).containsExactly(ids.get(2), ids.get(1));
    assertThat(page.next()).isNotNull();
    MessagePage rest =
        redrive.listMessages(
            MessageQuery.all(QUEUE)
                .withStates(Set.of(MessageState.COMPLETED))
                .withLimit(2)
                .withAfter(page.next()));
    assertThat(rest.messages()).extracting(Message::id).containsExactly(ids.get(0));
    assertThat(rest.next()).isNull();
    assertThat(
            redrive
                .listMessages(
                    MessageQuery.all(QUEUE)
                        .withStates(Set.of(MessageState.COMPLETED))
                        .withType("no-such-type"))
                .messages())
        .isEmpty();
    assertThat(
            redrive
                .listMessages(
                    MessageQuery.all(QUEUE)
                        .withStates(Set.of(MessageState.COMPLETED))
                        .withPayloadField("n", "1"))
                .messages())
        .extracting(Message::id)
        .containsExactly(ids.get(1));
    assertThat(
            redrive
                .listMessages(
                    MessageQuery.all(QUEUE)
                        .withStates(Set.of(MessageState.COMPLETED))
                        .withPayloadField("n", "7"))
                .messages())
        .isEmpty();
    assertThat(
            redrive
                .listMessages(
                    MessageQuery.all(QUEUE).withStates(Set.of(MessageState.COMPLETED)).withLimit(2))
                .messages())
        .as("a prefix of a kept id resolves")
        .isNotEmpty();
    assertThat(redrive.resolveId(ids.get(1).substring(0, 18))).isEqualTo(ids.get(1));
    assertThatThrownBy(
            () ->
                redrive.listMessages(
                    MessageQuery.all(QUEUE)
                        .withStates(Set.of(MessageState.COMPLETED, MessageState.READY))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("COMPLETED is listed on its own");
    assertThatThrownBy(
            () ->
                redrive.listMessages(
                    MessageQuery.all(QUEUE)
                        .withStates(Set.of(MessageState.COMPLETED))
                        .withAfter("not-a-cursor")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("after: invalid page cursor");
  }

  @Test
  void aStory_goesWithItsHistory_whenItsRetentionEnds() {
    createQueue(QUEUE, defaults().withCompletedRetention(KEEP));
    String id = enqueue(QUEUE);
    LeasedMessage first = leaseOne(QUEUE);
    fail(first);
    advance(Duration.ofHours(2)); // past any backoff
    complete(leaseOne(QUEUE));

    advance(KEEP);
    redrive.forgetCompletions(100);
    assertThat(find(id)).as("kept to the millisecond").isNotNull();

    advance(MILLI);
    assertThat(find(id)).as("past its time, not shown even before the sweep").isNull();
    assertThat(redrive.forgetCompletions(100)).isEqualTo(1);
    assertThat(completedIn(QUEUE)).isEmpty();
    assertThat(redrive.forgetCompletions(100)).isZero();
  }

  @Test
  void theCompletionWindow_keepsItsMeaning_whileTheStoryIsKept() {
    createQueue(QUEUE, defaults().withCompletedRetention(KEEP));
    String first = enqueueKeyed("order-7").id();
    LeasedMessage leased = leaseOne(QUEUE);
    complete(leased);

    assertThat(redrive.complete(leased.token()).repeated()).isTrue();
    assertThat(enqueueKeyed("order-7").duplicate()).isTrue();

    advance(Redrive.DEFAULT_COMPLETION_WINDOW.plus(MILLI));
    assertThatThrownBy(() -> redrive.complete(leased.token()))
        .isInstanceOf(LeaseNotFoundException.class);
    String second = enqueueKeyed("order-7").id();
    assertThat(second).as("a new message after the window").isNotEqualTo(first);
    assertThat(find(first).state()).isEqualTo(MessageState.COMPLETED);
  }

  @Test
  void theEnqueuedId_findsItsMessage_completedAfterDeathAndRedrive() {
    createQueue(DLQ);
    createQueue(
        QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)).withCompletedRetention(KEEP));
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    redrive.fail(
        FailRequest.of(leased.token(), FailureReason.VALIDATION_FAILURE, "bad")
            .withRetryable(false));
    redrive.redrive(RedriveRequest.all(DLQ));
    LeasedMessage again = leaseOne(QUEUE);
    complete(again);

    Lineage l = redrive.lineage(id);
    assertThat(l.current().orElseThrow().id()).isEqualTo(again.id());
    assertThat(l.current().orElseThrow().state()).isEqualTo(MessageState.COMPLETED);
    assertThat(l.current().orElseThrow().queue()).isEqualTo(QUEUE);
    assertThat(redrive.search(id, List.of(QUEUE, DLQ)))
        .containsExactly(
            new SearchHit(SearchHit.Match.MOVED, again.id(), QUEUE, MessageState.COMPLETED));
    Message story = find(again.id());
    assertThat(story.history()).extracting(e -> e.outcome()).contains(Outcome.COMPLETED);
  }

  @Test
  void theSetting_isChangedAndClearedByUpdate_andADeletedQueueForgetsItsStories() {
    createQueue(QUEUE);
    assertThat(redrive.getQueue(QUEUE).policy().completedRetention()).isNull();
    redrive.updateQueue(QUEUE, QueueUpdate.builder().completedRetention(KEEP).build());
    assertThat(redrive.getQueue(QUEUE).policy().completedRetention()).isEqualTo(KEEP);
    String id = enqueue(QUEUE);
    complete(leaseOne(QUEUE));
    assertThat(find(id)).isNotNull();

    redrive.updateQueue(QUEUE, QueueUpdate.builder().clearCompletedRetention().build());
    assertThat(redrive.getQueue(QUEUE).policy().completedRetention()).isNull();
    assertThat(find(id)).as("kept stories stay for the time they were given").isNotNull();

    redrive.deleteQueue(QUEUE);
    createQueue(QUEUE);
    assertThat(find(id)).isNull();
    assertThat(completedIn(QUEUE)).isEmpty();
  }

  @Test
  void badRetentions_areRefused_namingTheSetting() {
    assertThatThrownBy(() -> defaults().withCompletedRetention(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("completedRetention");
    assertThatThrownBy(() -> defaults().withCompletedRetention(Duration.ofDays(91)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("completedRetention: must be between 0s (keep nothing) and 90d");
    assertThatThrownBy(() -> Redrive.builder(store).completedRetention(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("completedRetention");
  }
}
