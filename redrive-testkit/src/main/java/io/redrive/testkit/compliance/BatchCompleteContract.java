package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.lease.CompleteAllResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Completing many leases in one call: current tokens complete, stale ones are reported lost. */
public abstract class BatchCompleteContract extends ComplianceTestBase {

  @Test
  void completeAll_currentTokens_allLeaveTheQueue() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 5);
    List<LeasedMessage> leased = lease(QUEUE, 5).leased();

    CompleteAllResult result =
        redrive.completeAll(leased.stream().map(LeasedMessage::token).toList());

    assertThat(result.completed())
        .containsExactlyInAnyOrderElementsOf(leased.stream().map(LeasedMessage::id).toList());
    assertThat(result.lost()).isEmpty();
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void completeAll_staleTokensReportedLost_settledOnesRepeated_othersComplete() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 3);
    List<LeasedMessage> first = lease(QUEUE, 3, Duration.ofSeconds(10)).leased();
    LeasedMessage settled = first.get(0);
    complete(settled);
    LeasedMessage stale = first.get(1);
    LeasedMessage current = first.get(2);
    redrive.renew(current.token(), Duration.ofMinutes(5));
    advance(Duration.ofSeconds(10));
    LeasedMessage releasedToOther = leaseOne(QUEUE);
    assertThat(releasedToOther.id()).isEqualTo(stale.id());

    List<String> tokens = new ArrayList<>();
    tokens.add(settled.token());
    tokens.add(stale.token());
    tokens.add(current.token());
    CompleteAllResult result = redrive.completeAll(tokens);

    // the settled token completed its message earlier: within the completion window that is
    // answered as completed again (a repeat), never as lost
    assertThat(result.completed()).containsExactlyInAnyOrder(current.id(), settled.id());
    assertThat(result.lost()).containsExactly(stale.id());
    assertThat(message(stale.id()).state()).isEqualTo(MessageState.LEASED);
    assertThat(message(stale.id()).attempts()).isEqualTo(2);
  }

  @Test
  void completeAll_messageWithHistory_completesAndLeavesNoStory() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    fail(leaseOne(QUEUE));
    advance(Duration.ofHours(1));
    LeasedMessage again = leaseOne(QUEUE);

    assertThat(redrive.completeAll(List.of(again.token())).completed()).containsExactly(id);
    assertThat(stats(QUEUE).failureReasons()).isEmpty();
  }

  @Test
  void completeAll_badInput_namesTheFieldAndChangesNothing() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage m = leaseOne(QUEUE);
    assertThatThrownBy(() -> redrive.completeAll(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tokens: ");
    assertThatThrownBy(() -> redrive.completeAll(List.of(m.token(), "forged")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("leaseToken: ");
    assertThat(message(m.id()).state()).isEqualTo(MessageState.LEASED);
  }
}
