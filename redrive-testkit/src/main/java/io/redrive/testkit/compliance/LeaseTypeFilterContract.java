package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.QueueNotFoundException;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Leasing only some types ({@link LeaseRequest#types}): a filtered lease takes messages of its
 * types in serve order, batch by batch, and never delivers, kills or changes a message of another
 * type; the stream head rule still counts every type; a bad filter is refused naming the problem.
 */
public abstract class LeaseTypeFilterContract extends ComplianceTestBase {

  private static NewMessage.Builder ofType(String type) {
    return NewMessage.builder(QUEUE, type).payload(PAYLOAD);
  }

  private String enqueueOf(String type) {
    return enqueue(ofType(type).build());
  }

  private LeaseResult leaseTypes(int max, String... types) {
    return redrive.lease(LeaseRequest.of(QUEUE, WORKER, max).withTypes(Set.of(types)));
  }

  @Test
  void lease_filteredByType_neverReturnsNorTouchesAnotherType() {
    createQueue(QUEUE);
    String b1 = enqueueOf("b");
    String a1 = enqueueOf("a");
    String b2 = enqueueOf("b");
    String a2 = enqueueOf("a");
    Message b1Before = message(b1);
    Message b2Before = message(b2);

    LeaseResult result = leaseTypes(10, "a");

    assertThat(ids(result)).containsExactly(a1, a2);
    assertThat(result.poisoned()).isEmpty();
    assertThat(result.expired()).isEmpty();
    assertThat(message(b1)).isEqualTo(b1Before);
    assertThat(message(b2)).isEqualTo(b2Before);
    assertThat(message(b1).attempts()).isZero();
    assertThat(message(b1).state()).isEqualTo(MessageState.READY);
    assertThat(ids(lease(QUEUE, 10))).containsExactly(b1, b2);
  }

  @Test
  void lease_filteredByType_keepsServeOrderAmongItsTypes() {
    createQueue(QUEUE);
    String a1 = enqueueOf("a");
    enqueueOf("b");
    String c1 = enqueueOf("c");
    enqueueOf("b");
    String a2 = enqueueOf("a");
    String a3 = enqueueOf("a");

    List<String> served = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      served.addAll(ids(leaseTypes(1, "a", "c")));
    }

    assertThat(served).containsExactly(a1, c1, a2, a3);
    assertThat(leaseTypes(1, "a", "c").leased()).isEmpty();
  }

  @Test
  void lease_filteredBatch_takesUpToMaxOfItsTypesOnly() {
    createQueue(QUEUE);
    List<String> as = new ArrayList<>();
    List<String> bs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      bs.add(enqueueOf("b"));
      as.add(enqueueOf("a"));
    }

    LeaseResult first = leaseTypes(3, "a");
    LeaseResult second = leaseTypes(10, "a");

    assertThat(ids(first)).containsExactlyElementsOf(as.subList(0, 3));
    assertThat(ids(second)).containsExactlyElementsOf(as.subList(3, 5));
    assertThat(first.leased()).extracting(LeasedMessage::type).containsOnly("a");
    assertThat(ids(lease(QUEUE, 10))).containsExactlyElementsOf(bs);
  }

  @Test
  void lease_filteredByType_leavesAnotherTypesDeadlineAndRunOutLeaseAlone() {
    createQueue(QUEUE);
    String held = enqueueOf("b");
    assertThat(ids(leaseTypes(1, "b"))).containsExactly(held);
    String expiring = enqueue(ofType("b").expireAfter(Duration.ofSeconds(5)).build());
    advance(Duration.ofMinutes(1)); // past the deadline of one and the lease of the other
    String a = enqueueOf("a");
    Message expiringBefore = message(expiring);
    Message heldBefore = message(held);

    LeaseResult result = leaseTypes(10, "a");

    assertThat(ids(result)).containsExactly(a);
    assertThat(result.expired()).isEmpty();
    assertThat(message(expiring)).isEqualTo(expiringBefore);
    assertThat(message(held)).isEqualTo(heldBefore);
    assertThat(outcomes(held)).doesNotContain(Outcome.LEASE_EXPIRED);

    LeaseResult unfiltered = lease(QUEUE, 10);
    assertThat(unfiltered.expired()).containsExactly(expiring);
    assertThat(ids(unfiltered)).containsExactly(held);
    assertThat(outcomes(held)).contains(Outcome.LEASE_EXPIRED);
  }

  @Test
  void lease_filteredByType_anEarlierMessageOfAnotherTypeStillBlocksItsStream() {
    createQueue(QUEUE);
    String head = enqueue(ofType("b").stream("s").build());
    String next = enqueue(ofType("a").stream("s").build());

    assertThat(leaseTypes(10, "a").leased()).isEmpty();
    assertThat(message(next).attempts()).isZero();

    LeasedMessage b = leaseTypes(1, "b").leased().get(0);
    assertThat(b.id()).isEqualTo(head);
    complete(b);
    assertThat(ids(leaseTypes(10, "a"))).containsExactly(next);
  }

  @Test
  void lease_emptyTypes_leasesEveryType() {
    createQueue(QUEUE);
    String a = enqueueOf("a");
    String b = enqueueOf("b");

    assertThat(ids(redrive.lease(LeaseRequest.of(QUEUE, WORKER, 10).withTypes(Set.of()))))
        .containsExactly(a, b);
    assertThat(LeaseRequest.of(QUEUE, WORKER, 1).withTypes(null).types()).isEmpty();
  }

  @Test
  void lease_filteredOnUnknownQueue_throwsQueueNotFound() {
    assertThatThrownBy(() -> leaseTypes(1, "a")).isInstanceOf(QueueNotFoundException.class);
  }

  @Test
  void lease_blankType_refusedNamingIt() {
    createQueue(QUEUE);
    enqueueOf("a");

    assertThatThrownBy(() -> leaseTypes(1, " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("types[0]: must not be blank");
    Set<String> withNull = new HashSet<>();
    withNull.add(null);
    assertThatThrownBy(() -> redrive.lease(LeaseRequest.of(QUEUE, WORKER, 1).withTypes(withNull)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("types[0]: is required");
    assertThatThrownBy(() -> leaseTypes(1, "x".repeat(201)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("types[0]: longer than 200 characters");
    assertThat(messagesIn(QUEUE)).extracting(Message::attempts).containsOnly(0);
  }

  @Test
  void lease_tooManyTypes_refusedWithTheCap() {
    createQueue(QUEUE);
    Set<String> types = new HashSet<>();
    for (int i = 0; i <= LeaseRequest.MAX_TYPES; i++) {
      types.add("t" + i);
    }

    assertThatThrownBy(() -> redrive.lease(LeaseRequest.of(QUEUE, WORKER, 1).withTypes(types)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("types: at most 1000 per lease, was 1001");
  }

  @Test
  void lease_manyTypes_upToTheCap_served() {
    createQueue(QUEUE);
    String a = enqueueOf("t999");
    enqueueOf("other");
    Set<String> types = new HashSet<>();
    for (int i = 0; i < LeaseRequest.MAX_TYPES; i++) {
      types.add("t" + i);
    }

    assertThat(ids(redrive.lease(LeaseRequest.of(QUEUE, WORKER, 10).withTypes(types))))
        .containsExactly(a);
  }
}
