package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.deadletter.RedriveRequest;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.Lineage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.SearchHit;
import io.redrive.queue.DeadLetter;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lineage: the id an enqueue returned still finds its message after the message died and was copied
 * into its dead-letter queue, and after that copy was redriven and died again; each id of the chain
 * leads to the same story, both ways.
 */
public abstract class LineageContract extends ComplianceTestBase {
  @BeforeEach
  void createQueues() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
  }

  /** Leases the one ready message of {@link #QUEUE} and kills it; returns its DLQ copy's id. */
  private String kill(String id) {
    LeasedMessage leased = leaseOne(QUEUE);
    assertThat(leased.id()).isEqualTo(id);
    redrive.fail(
        FailRequest.of(leased.token(), FailureReason.VALIDATION_FAILURE, "bad")
            .withRetryable(false));
    return messagesIn(DLQ).stream()
        .filter(m -> id.equals(m.sourceId()))
        .findFirst()
        .orElseThrow()
        .id();
  }

  private static List<String> ids(Lineage l) {
    return l.links().stream().map(Lineage.Link::id).toList();
  }

  @Test
  void anUnknownId_isUnknown() {
    Lineage l = redrive.lineage(unknownId());
    assertThat(l.unknown()).isTrue();
    assertThat(l.current()).isEmpty();
  }

  @Test
  void aLiveMessage_isItsOwnLineage() {
    String id = enqueue(QUEUE);
    Lineage l = redrive.lineage(id);
    assertThat(ids(l)).containsExactly(id);
    assertThat(l.current().orElseThrow().queue()).isEqualTo(QUEUE);
    assertThat(l.current().orElseThrow().state()).isEqualTo(MessageState.READY);
    assertThat(l.unknown()).isFalse();
  }

  @Test
  void theEnqueuedId_leadsToItsDeadLetterCopy_andBack() {
    String id = enqueue(QUEUE);
    String copy = kill(id);

    Lineage fromOriginal = redrive.lineage(id);
    assertThat(ids(fromOriginal)).containsExactly(id, copy);
    assertThat(fromOriginal.links().get(0).stored()).isFalse();
    assertThat(fromOriginal.links().get(0).queue()).as("where it was").isEqualTo(QUEUE);
    assertThat(fromOriginal.current().orElseThrow().id()).isEqualTo(copy);
    assertThat(fromOriginal.current().orElseThrow().queue()).isEqualTo(DLQ);
    assertThat(fromOriginal.current().orElseThrow().state()).isEqualTo(MessageState.DEAD);
    assertThat(fromOriginal.unknown()).isFalse();

    assertThat(redrive.lineage(copy).links()).isEqualTo(fromOriginal.links());
  }

  @Test
  void aChainOfMoves_isFollowedBothWays_fromEveryId() {
    String id = enqueue(QUEUE);
    String first = kill(id);
    redrive.redrive(RedriveRequest.all(DLQ));
    String second = kill(first); // the redriven copy keeps its id, and dies again

    for (String asked : List.of(id, first, second)) {
      Lineage l = redrive.lineage(asked);
      assertThat(ids(l)).as(asked).containsExactly(id, first, second);
      assertThat(l.current().orElseThrow().id()).as(asked).isEqualTo(second);
    }
    Lineage l = redrive.lineage(id);
    assertThat(l.links().get(0).queue()).as("where the story began").isEqualTo(QUEUE);
    assertThat(l.links().get(1).stored()).as("the first copy moved on").isFalse();
    assertThat(l.links().get(1).queue()).isEqualTo(QUEUE);
  }

  // ---- search: any id, a prefix, a moved id, a dedupe key ----

  @Test
  void search_findsByIdPrefixMovedIdAndDedupeKey_withinTheGivenQueues() {
    String plain = enqueue(QUEUE);
    String keyed = enqueue(newMessage(QUEUE).dedupeKey("order-42").build());
    String moved = enqueue(QUEUE);
    // the oldest ready message is leased first: kill the first two, keep "moved" for the copy
    String doomed = enqueue(newMessage(QUEUE).dedupeKey("doomed").build());
    List<String> both = List.of(QUEUE, DLQ);

    assertThat(redrive.search(plain, both))
        .containsExactly(new SearchHit(SearchHit.Match.ID, plain, QUEUE, MessageState.READY));
    assertThat(redrive.search("order-42", both))
        .containsExactly(
            new SearchHit(SearchHit.Match.DEDUPE_KEY, keyed, QUEUE, MessageState.READY));
    assertThat(redrive.search(plain.substring(0, plain.length() - 1), both))
        .extracting(SearchHit::id)
        .contains(plain);
    assertThat(redrive.search("order-42", List.of(DLQ))).as("another queue's key").isEmpty();

    String copy = killUntil(moved);
    assertThat(redrive.search(moved, both))
        .containsExactly(new SearchHit(SearchHit.Match.MOVED, copy, DLQ, MessageState.DEAD));
    assertThat(redrive.search(moved, List.of(DLQ)))
        .as("the moved id was another queue's: not found from the dead-letter queue alone")
        .isEmpty();
    assertThat(redrive.search("no such thing at all", both)).isEmpty();
    assertThat(doomed).isNotNull();
  }

  @Test
  void listing_byDedupeKey_findsTheOneMessage() {
    enqueue(QUEUE);
    String keyed = enqueue(newMessage(QUEUE).dedupeKey("k-1").build());
    assertThat(
            redrive.listMessages(MessageQuery.all(QUEUE).withDedupeKey("k-1")).messages().stream()
                .map(m -> m.id())
                .toList())
        .containsExactly(keyed);
    assertThat(redrive.listMessages(MessageQuery.all(QUEUE).withDedupeKey("k-2")).messages())
        .isEmpty();
  }

  /** Kills messages of {@link #QUEUE} in serve order until {@code id} died; returns its copy. */
  private String killUntil(String id) {
    while (true) {
      LeasedMessage leased = leaseOne(QUEUE);
      redrive.fail(
          FailRequest.of(leased.token(), FailureReason.VALIDATION_FAILURE, "bad")
              .withRetryable(false));
      if (leased.id().equals(id)) {
        return messagesIn(DLQ).stream()
            .filter(m -> id.equals(m.sourceId()))
            .findFirst()
            .orElseThrow()
            .id();
      }
    }
  }
}
