package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.QueueNotFoundException;
import io.redrive.lease.LeaseHolder;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lease holders: the workers holding leases now, per queue and type, with how many they hold, how
 * many are past their deadline, and when their first and last lease began; a worker that settled
 * everything is gone from the list.
 */
public abstract class LeaseHoldersContract extends ComplianceTestBase {
  @BeforeEach
  void createQueues() {
    createQueue(QUEUE);
    createQueue(OTHER);
  }

  @Test
  void nothingLeased_noHolders() {
    enqueue(QUEUE);
    assertThat(redrive.leaseHolders(QUEUE)).isEmpty();
    assertThat(redrive.leaseHolders(null)).isEmpty();
  }

  @Test
  void holders_perWorkerAndType_withCountsAndTimes() {
    enqueue(NewMessage.builder(QUEUE, "a").payload(PAYLOAD).build());
    enqueue(NewMessage.builder(QUEUE, "a").payload(PAYLOAD).build());
    enqueue(NewMessage.builder(QUEUE, "b").payload(PAYLOAD).build());
    enqueue(OTHER);
    Instant first = now();
    redrive.lease(new LeaseRequest(QUEUE, "w1", 2, Duration.ofMinutes(1)));
    advance(Duration.ofSeconds(30));
    Instant second = now();
    List<LeasedMessage> byW2 = redrive.lease(new LeaseRequest(QUEUE, "w2", 5, LONG_LEASE)).leased();
    redrive.lease(LeaseRequest.of(OTHER, "w1", 5));
    advance(Duration.ofSeconds(45)); // w1's minute-long leases are past their deadline

    assertThat(redrive.leaseHolders(QUEUE))
        .containsExactly(
            new LeaseHolder("w1", QUEUE, "a", 2, 2, first, first),
            new LeaseHolder("w2", QUEUE, "b", 1, 0, second, second));
    assertThat(redrive.leaseHolders(null)).hasSize(3);

    redrive.complete(byW2.get(0).token());
    assertThat(redrive.leaseHolders(QUEUE)).extracting(LeaseHolder::worker).containsExactly("w1");
  }

  @Test
  void unknownQueue_isRefused() {
    assertThatThrownBy(() -> redrive.leaseHolders("no-such-queue"))
        .isInstanceOf(QueueNotFoundException.class);
  }
}
