package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Listing messages: each filter, cursor paging in serve order, and the last error on a page. */
public abstract class ListingContract extends ComplianceTestBase {

  @Test
  void list_byState_separatesReadyScheduledLeasedAndDead() {
    createQueue(QUEUE);
    String ready = enqueue(QUEUE);
    String leased = enqueue(QUEUE);
    String dead = enqueue(QUEUE);
    String scheduled = enqueue(newMessage(QUEUE).delay(Duration.ofMinutes(5)).build());
    // lease in serve order: ready, leased, dead are visible; take two and settle one dead
    var first = lease(QUEUE, 3, LONG_LEASE).leased();
    assertThat(first).extracting(m -> m.id()).containsExactly(ready, leased, dead);
    redrive.release(List.of(first.get(0).token()));
    failPermanently(first.get(2));

    assertThat(ids(query().withStates(Set.of(MessageState.READY)))).containsExactly(ready);
    assertThat(ids(query().withStates(Set.of(MessageState.SCHEDULED)))).containsExactly(scheduled);
    assertThat(ids(query().withStates(Set.of(MessageState.LEASED)))).containsExactly(leased);
    assertThat(ids(query().withStates(Set.of(MessageState.DEAD)))).containsExactly(dead);
    assertThat(ids(query().withStates(Set.of(MessageState.READY, MessageState.DEAD))))
        .containsExactly(ready, dead);
  }

  @Test
  void list_byStreamTypeAndReasons_matchesOnlyThose() {
    createQueue(QUEUE);
    String inStream = enqueue(newMessage(QUEUE).stream("s1").build());
    String otherType = enqueue(NewMessage.builder(QUEUE, "other").payload(PAYLOAD).build());
    String failed = enqueue(QUEUE);
    var leased = lease(QUEUE, 3, LONG_LEASE).leased();
    var failedLease = leased.stream().filter(m -> m.id().equals(failed)).findFirst().orElseThrow();
    fail(failedLease, FailureReason.DEPENDENCY_FAILURE);
    var deadLease = leased.stream().filter(m -> m.id().equals(otherType)).findFirst().orElseThrow();
    failPermanently(deadLease);

    assertThat(ids(query().withStream("s1"))).containsExactly(inStream);
    assertThat(ids(query().withType("other"))).containsExactly(otherType);
    assertThat(ids(query().withLastFailureReason(FailureReason.DEPENDENCY_FAILURE)))
        .containsExactly(failed);
    assertThat(ids(query().withDeadReason(message(otherType).deadReason())))
        .containsExactly(otherType);
  }

  @Test
  void list_pages_walkEveryMessageOnceInEnqueueOrder() {
    createQueue(QUEUE);
    List<String> all = enqueueMany(QUEUE, 7);
    List<String> seen = new ArrayList<>();
    MessagePage page = redrive.listMessages(query().withLimit(3));
    int pages = 1;
    seen.addAll(page.messages().stream().map(Message::id).toList());
    while (page.next() != null) {
      page = redrive.listMessages(query().withLimit(3).withAfter(page.next()));
      seen.addAll(page.messages().stream().map(Message::id).toList());
      pages++;
    }
    assertThat(seen).containsExactlyElementsOf(all);
    assertThat(pages).isEqualTo(3);
  }

  @Test
  void list_page_carriesLastErrorWithoutHistory() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    fail(leaseOne(QUEUE), FailureReason.TRANSPORT_UNAVAILABLE);

    Message listed = redrive.listMessages(query()).messages().get(0);

    assertThat(listed.id()).isEqualTo(id);
    assertThat(listed.history()).isEmpty();
    assertThat(listed.lastError()).isNotNull();
    assertThat(listed.lastError().reason()).isEqualTo(FailureReason.TRANSPORT_UNAVAILABLE);
    assertThat(message(id).lastError()).isEqualTo(listed.lastError());
  }

  @Test
  void list_deadLetterCopy_carriesTheAttemptsItUsedInItsSourceQueue() {
    createQueue(DLQ);
    createQueue(
        QUEUE,
        defaults().withMaxAttempts(3).withDeadLetter(io.redrive.queue.DeadLetter.moveTo(DLQ)));
    String ordinary = enqueue(DLQ);
    enqueue(QUEUE);
    fail(leaseOne(QUEUE), FailureReason.HANDLER_EXCEPTION);
    advance(Duration.ofDays(1));
    failPermanently(leaseOne(QUEUE));

    List<Message> page = redrive.listMessages(MessageQuery.all(DLQ)).messages();
    assertThat(page).hasSize(2);
    Message copy = page.stream().filter(m -> !m.id().equals(ordinary)).findFirst().orElseThrow();
    assertThat(copy.attempts()).isZero();
    assertThat(copy.sourceAttempts()).as("the attempts it used in " + QUEUE).isEqualTo(2);
    assertThat(message(copy.id()).sourceAttempts()).isEqualTo(2);
    assertThat(page.stream().filter(m -> m.id().equals(ordinary)).findFirst().orElseThrow())
        .extracting(Message::sourceAttempts)
        .isNull();
  }

  private MessageQuery query() {
    return MessageQuery.all(QUEUE);
  }

  private List<String> ids(MessageQuery q) {
    return redrive.listMessages(q).messages().stream().map(Message::id).toList();
  }
}
