package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.deadletter.RedrivePosition;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.StreamOrder;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.Message;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.StreamPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Redrive that restores a stream's order (docs/engine.md, "Redrive and stream order"): dead
 * messages of a stream moved back from the dead-letter queue go back in their original sequence,
 * ahead of the stream's messages that waited behind them ({@link RedrivePosition#ORIGINAL}, the
 * default), or behind them all ({@link RedrivePosition#END}); a dry run answers the resulting order
 * and changes nothing. The order is checked by leasing one message at a time.
 */
public abstract class StreamRedriveContract extends ComplianceTestBase {
  private static final String STREAM = "account-7";

  private String inStream(int n) {
    return enqueue(newMessage(QUEUE).stream(STREAM).payload("{\"n\":" + n + "}").build());
  }

  private void createStreamQueue(StreamPolicy policy) {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withStreamPolicy(policy).withDeadLetter(DeadLetter.moveTo(DLQ)));
  }

  /** Leases one message at a time, completing each: the payloads' numbers in delivery order. */
  private List<Integer> drain() {
    List<Integer> order = new ArrayList<>();
    while (true) {
      List<LeasedMessage> leased = lease(QUEUE, 1).leased();
      if (leased.isEmpty()) {
        return order;
      }
      LeasedMessage m = leased.get(0);
      order.add(Integer.parseInt(m.payload().replaceAll("\\D", "")));
      complete(m);
    }
  }

  private List<Integer> numbers(List<String> ids) {
    return ids.stream()
        .map(id -> Integer.parseInt(message(id).payload().replaceAll("\\D", "")))
        .toList();
  }

  /** HOLD: the first two die in turn (each dead head frees the stream); 3..5 wait. */
  private void twoDeadHeadsThreeWaiting() {
    createStreamQueue(StreamPolicy.HOLD);
    for (int n = 1; n <= 5; n++) {
      inStream(n);
    }
    failPermanently(leaseOne(QUEUE));
    failPermanently(leaseOne(QUEUE));
    assertThat(messagesIn(DLQ)).hasSize(2);
  }

  @Test
  void hold_redriven_goBackAheadOfTheMessagesThatWaited_inTheirOriginalOrder() {
    twoDeadHeadsThreeWaiting();

    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ));

    assertThat(result.count()).isEqualTo(2);
    assertThat(result.streams()).hasSize(1);
    StreamOrder order = result.streams().get(0);
    assertThat(order.queue()).isEqualTo(QUEUE);
    assertThat(order.stream()).isEqualTo(STREAM);
    assertThat(numbers(order.ids())).containsExactly(1, 2, 3, 4, 5);
    assertThat(numbers(order.redriven())).containsExactly(1, 2);
    assertThat(drain()).containsExactly(1, 2, 3, 4, 5);
  }

  @Test
  void dryRun_answersTheResultingOrder_andChangesNothing() {
    twoDeadHeadsThreeWaiting();
    List<Message> before = messagesIn(QUEUE);

    RedriveResult dry = redrive.redrive(RedriveRequest.all(DLQ).withDryRun(true));
    RedriveResult dryEnd =
        redrive.redrive(RedriveRequest.all(DLQ).withDryRun(true).withPosition(RedrivePosition.END));

    assertThat(dry.dryRun()).isTrue();
    assertThat(numbers(dry.streams().get(0).ids())).containsExactly(1, 2, 3, 4, 5);
    assertThat(numbers(dryEnd.streams().get(0).ids())).containsExactly(3, 4, 5, 1, 2);
    assertThat(messagesIn(DLQ)).hasSize(2);
    assertThat(messagesIn(QUEUE)).isEqualTo(before);
    assertThat(drain()).containsExactly(3, 4, 5);
  }

  /** RELEASE: 1 waits for its retry, 2 goes on and dies first, then 1 dies; 3 and 4 wait. */
  private void releaseStreamDeadOutOfOrder() {
    createStreamQueue(StreamPolicy.RELEASE);
    for (int n = 1; n <= 4; n++) {
      inStream(n);
    }
    failRetryAfter(leaseOne(QUEUE), Duration.ofMinutes(1));
    failPermanently(leaseOne(QUEUE));
    advance(Duration.ofMinutes(1));
    failPermanently(leaseOne(QUEUE));
    assertThat(numbers(messagesIn(DLQ).stream().map(Message::id).toList()))
        .containsExactlyInAnyOrder(1, 2);
  }

  @Test
  void release_original_putsThemBackInTheirOrder_evenWhenTheyDiedOutOfIt() {
    releaseStreamDeadOutOfOrder();

    redrive.redrive(RedriveRequest.all(DLQ).withPosition(RedrivePosition.ORIGINAL));

    assertThat(drain()).containsExactly(1, 2, 3, 4);
  }

  @Test
  void release_end_putsThemBehindTheStreamThatMovedOn() {
    releaseStreamDeadOutOfOrder();

    RedriveResult result =
        redrive.redrive(RedriveRequest.all(DLQ).withPosition(RedrivePosition.END));

    assertThat(numbers(result.streams().get(0).ids())).containsExactly(3, 4, 1, 2);
    assertThat(drain()).containsExactly(3, 4, 1, 2);
  }

  @Test
  void messagesWithoutAStream_areNotReordered() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    enqueueAndKill(QUEUE);

    RedriveResult result = redrive.redrive(RedriveRequest.all(DLQ));

    assertThat(result.count()).isEqualTo(1);
    assertThat(result.streams()).isEmpty();
  }

  @Test
  void newMessagesEnqueuedDuringTheRedrive_queueBehindTheRestoredOrder() throws Exception {
    twoDeadHeadsThreeWaiting();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread producer =
        new Thread(
            () -> {
              try {
                for (int n = 100; n < 120; n++) {
                  inStream(n);
                }
              } catch (Throwable t) {
                failed.set(t);
              }
            },
            "producer");
    producer.start();
    redrive.redrive(RedriveRequest.all(DLQ));
    producer.join(30_000);

    assertThat(failed.get()).isNull();
    List<Integer> expected = new ArrayList<>(List.of(1, 2, 3, 4, 5));
    for (int n = 100; n < 120; n++) {
      expected.add(n);
    }
    assertThat(drain()).containsExactlyElementsOf(expected);
  }
}
