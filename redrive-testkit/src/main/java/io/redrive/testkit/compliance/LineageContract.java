package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.deadletter.RedriveRequest;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.Lineage;
import io.redrive.message.MessageState;
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
    assertThat(l.links().get(1).stored()).as("the first copy moved on").isFalse();
    assertThat(l.links().get(1).queue()).isEqualTo(QUEUE);
  }
}
