package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.failure.FailureReason;
import io.redrive.lease.FailAllResult;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Failing many leases in one call: each exactly as a single fail, stale tokens reported lost. */
public abstract class BatchFailContract extends ComplianceTestBase {

  @Test
  void failAll_mixedOutcomes_eachAsASingleFailWould() {
    createQueue(QUEUE, QueuePolicy.defaults().withMaxAttempts(2));
    enqueueMany(QUEUE, 3);
    List<LeasedMessage> leased = lease(QUEUE, 3).leased();
    Instant failedAt = now();

    FailAllResult result =
        redrive.failAll(
            List.of(
                FailRequest.of(leased.get(0).token(), FailureReason.HANDLER_EXCEPTION, "retry me"),
                FailRequest.of(leased.get(1).token(), FailureReason.VALIDATION_FAILURE, "bad"),
                FailRequest.of(leased.get(2).token(), FailureReason.DEPENDENCY_FAILURE, "later")
                    .withRetryAfter(Duration.ofSeconds(7))
                    .withProgress(0b101)));

    assertThat(result.lost()).isEmpty();
    assertThat(result.failed())
        .extracting(SettleResult::messageId)
        .containsExactly(leased.get(0).id(), leased.get(1).id(), leased.get(2).id());
    assertThat(result.failed())
        .extracting(SettleResult::state)
        .containsExactly(MessageState.SCHEDULED, MessageState.DEAD, MessageState.SCHEDULED);
    Message retried = message(leased.get(0).id());
    assertThat(retried.visibleAt()).isEqualTo(failedAt.plus(Duration.ofMinutes(1)));
    assertThat(last(retried).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(last(retried).failure().message()).isEqualTo("retry me");
    Message dead = message(leased.get(1).id());
    assertThat(dead.deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
    Message later = message(leased.get(2).id());
    assertThat(later.visibleAt()).isEqualTo(failedAt.plus(Duration.ofSeconds(7)));
    assertThat(later.progress()).isEqualTo(0b101);
  }

  @Test
  void failAll_staleAndSettledTokens_reportedLostAndUnchanged() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 3);
    List<LeasedMessage> first = lease(QUEUE, 3, Duration.ofSeconds(10)).leased();
    LeasedMessage settled = first.get(0);
    complete(settled);
    LeasedMessage stale = first.get(1);
    LeasedMessage current = first.get(2);
    redrive.renew(current.token(), Duration.ofMinutes(5));
    advance(Duration.ofSeconds(10));
    LeasedMessage reLeased = leaseOne(QUEUE);
    assertThat(reLeased.id()).isEqualTo(stale.id());

    FailAllResult result =
        redrive.failAll(
            List.of(
                FailRequest.of(settled.token(), FailureReason.HANDLER_EXCEPTION, "x"),
                FailRequest.of(stale.token(), FailureReason.HANDLER_EXCEPTION, "x"),
                FailRequest.of(current.token(), FailureReason.HANDLER_EXCEPTION, "x")));

    assertThat(result.failed()).extracting(SettleResult::messageId).containsExactly(current.id());
    assertThat(result.lost()).containsExactly(settled.id(), stale.id());
    Message stillLeased = message(stale.id());
    assertThat(stillLeased.state()).isEqualTo(MessageState.LEASED);
    assertThat(stillLeased.attempts()).isEqualTo(2);
    assertThat(message(current.id()).state()).isEqualTo(MessageState.SCHEDULED);
  }

  @Test
  void failAll_badInput_namesTheFieldAndChangesNothing() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 2);
    List<LeasedMessage> leased = lease(QUEUE, 2).leased();
    assertThatThrownBy(() -> redrive.failAll(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("requests: ");
    assertThatThrownBy(
            () ->
                redrive.failAll(
                    List.of(
                        FailRequest.of(leased.get(0).token(), FailureReason.UNKNOWN, "x"),
                        FailRequest.of("forged", FailureReason.UNKNOWN, "x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("leaseToken");
    assertThat(message(leased.get(0).id()).state()).isEqualTo(MessageState.LEASED);
    assertThat(message(leased.get(1).id()).state()).isEqualTo(MessageState.LEASED);
  }
}
