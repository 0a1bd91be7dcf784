package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.QueueNotFoundException;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.store.ReadySubscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Enqueue: stored content, ids, batches (all or nothing), dedupe keys, delays and deadlines. */
public abstract class EnqueueContract extends ComplianceTestBase {

  @Test
  void enqueue_wakesReadySubscribersOfTheQueue() {
    createQueue(QUEUE);
    AtomicInteger signals = new AtomicInteger();
    try (ReadySubscription ignored = redrive.subscribeReady(QUEUE, signals::incrementAndGet)) {
      enqueue(QUEUE);
    }
    assertThat(signals.get()).isPositive();
  }

  @Test
  void enqueue_message_storedReadyWithItsContent() {
    createQueue(QUEUE);

    EnqueueResult result =
        redrive.enqueue(newMessage(QUEUE).headers(headers()).stream("customer-42").build());

    assertThat(result.duplicate()).isFalse();
    Message m = message(result.id());
    assertThat(m.id()).isEqualTo(result.id());
    assertThat(m.queue()).isEqualTo(QUEUE);
    assertThat(m.type()).isEqualTo(TYPE);
    assertThat(m.payload()).isEqualTo(PAYLOAD);
    assertThat(m.headers()).isEqualTo(headers());
    assertThat(m.stream()).isEqualTo("customer-42");
    assertThat(m.state()).isEqualTo(MessageState.READY);
    assertThat(m.attempts()).isZero();
    assertThat(m.maxAttempts()).isEqualTo(5);
    assertThat(m.progress()).isZero();
    assertThat(m.enqueuedAt()).isEqualTo(now());
    assertThat(m.visibleAt()).isEqualTo(now());
    assertThat(m.expireAt()).isNull();
    assertThat(m.leasedBy()).isNull();
    assertThat(m.deadReason()).isNull();
    assertThat(m.sourceId()).isNull();
    assertThat(m.dedupeKey()).isNull();
  }

  @Test
  void enqueue_idsAreUuidsUniqueAndTimeOrdered() {
    createQueue(QUEUE);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add(enqueue(QUEUE));
      advance(MILLI);
    }

    assertThat(ids).doesNotHaveDuplicates().isSorted();
    ids.forEach(id -> assertThat(UUID.fromString(id).version()).isEqualTo(7));
  }

  @Test
  void enqueue_emptyPayloadAndUnicode_roundTrip() {
    createQueue(QUEUE);
    String unicode = "{\"text\":\"Grüße, 世界 — 🚀\"}";

    String empty = enqueue(newMessage(QUEUE).payload("").build());
    String fancy = enqueue(newMessage(QUEUE).payload(unicode).build());

    assertThat(message(empty).payload()).isEmpty();
    assertThat(message(fancy).payload()).isEqualTo(unicode);
  }

  @Test
  void enqueue_payloadNearLimit_roundTrips() {
    createQueue(QUEUE);
    String big = repeat('x', 256 * 1024);

    String id = enqueue(newMessage(QUEUE).payload(big).build());

    assertThat(message(id).payload()).isEqualTo(big);
  }

  @Test
  void enqueueBatch_severalMessages_storedInServeOrder() {
    createQueue(QUEUE);
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      batch.add(newMessage(QUEUE).payload("{\"n\":" + i + "}").build());
    }

    List<EnqueueResult> results = redrive.enqueueBatch(batch);

    assertThat(results).hasSize(5);
    List<String> ids = results.stream().map(EnqueueResult::id).toList();
    assertThat(ids).doesNotHaveDuplicates();
    assertThat(ids(lease(QUEUE, 10))).containsExactlyElementsOf(ids);
  }

  @Test
  void enqueueBatch_everyFieldAndAwkwardText_roundTripsRowByRow() {
    createQueue(QUEUE);
    // Characters that array and VALUES encodings must escape, nulls beside values in one batch.
    String[] payloads = {
      "",
      "{\"q\":\"a \\\"quoted\\\" {brace}, comma\"}",
      "NULL",
      "{}",
      "back\\slash",
      "line\nbreak\ttab",
      "{\"text\":\"Grüße, 世界 — 🚀\"}",
      "  spaced  "
    };
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < payloads.length; i++) {
      NewMessage.Builder b = NewMessage.builder(QUEUE, "t-" + i).payload(payloads[i]);
      if (i % 2 == 0) {
        b.headers(Map.of("h", "{\"v\"}, \\ " + i)).stream("s-" + i);
      }
      if (i % 3 == 0) {
        b.delay(Duration.ofSeconds(i + 1)).expireAfter(Duration.ofHours(i + 1));
      }
      batch.add(b.build());
    }

    List<EnqueueResult> results = redrive.enqueueBatch(batch);

    for (int i = 0; i < payloads.length; i++) {
      Message m = message(results.get(i).id());
      assertThat(m.payload()).as("payload %d", i).isEqualTo(payloads[i]);
      assertThat(m.type()).isEqualTo("t-" + i);
      assertThat(m.headers()).isEqualTo(i % 2 == 0 ? Map.of("h", "{\"v\"}, \\ " + i) : Map.of());
      assertThat(m.stream()).isEqualTo(i % 2 == 0 ? "s-" + i : null);
      assertThat(m.visibleAt()).isEqualTo(i % 3 == 0 ? now().plusSeconds(i + 1) : now());
      assertThat(m.expireAt()).isEqualTo(i % 3 == 0 ? now().plus(Duration.ofHours(i + 1)) : null);
      assertThat(m.state()).isEqualTo(i % 3 == 0 ? MessageState.SCHEDULED : MessageState.READY);
      assertThat(m.attempts()).isZero();
    }
  }

  @Test
  void enqueueBatch_oneMessageToUnknownQueue_enqueuesNothing() {
    createQueue(QUEUE);
    List<NewMessage> batch =
        List.of(newMessage(QUEUE).build(), newMessage("nope").build(), newMessage(QUEUE).build());

    assertThatThrownBy(() -> redrive.enqueueBatch(batch))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");

    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void enqueue_unknownQueue_throwsQueueNotFound() {
    assertThatThrownBy(() -> enqueue("nope"))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");
  }

  @Test
  void enqueue_sameDedupeKeyTwice_returnsFirstIdAsDuplicate() {
    createQueue(QUEUE);

    EnqueueResult first = redrive.enqueue(newMessage(QUEUE).dedupeKey("order-1").build());
    EnqueueResult second =
        redrive.enqueue(newMessage(QUEUE).dedupeKey("order-1").payload("{\"other\":1}").build());

    assertThat(first.duplicate()).isFalse();
    assertThat(second.duplicate()).isTrue();
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(stats(QUEUE).total()).isEqualTo(1);
    assertThat(message(first.id()).payload()).isEqualTo(PAYLOAD);
    assertThat(message(first.id()).dedupeKey()).isEqualTo("order-1");
  }

  @Test
  void enqueue_dedupeKeyWhileFirstLeased_stillDuplicate() {
    createQueue(QUEUE);
    String first = redrive.enqueue(newMessage(QUEUE).dedupeKey("order-1").build()).id();
    leaseOne(QUEUE);

    EnqueueResult second = redrive.enqueue(newMessage(QUEUE).dedupeKey("order-1").build());

    assertThat(second).isEqualTo(new EnqueueResult(first, true));
  }

  @Test
  void enqueue_dedupeKeyAfterFirstCompletedAndWindowPassed_createsNewMessage() {
    createQueue(QUEUE);
    String first = redrive.enqueue(newMessage(QUEUE).dedupeKey("order-1").build()).id();
    complete(leaseOne(QUEUE));
    advance(redrive.completionWindow().plus(MILLI));

    EnqueueResult second = redrive.enqueue(newMessage(QUEUE).dedupeKey("order-1").build());

    assertThat(second.duplicate()).isFalse();
    assertThat(second.id()).isNotEqualTo(first);
  }

  @Test
  void enqueue_sameDedupeKeyInOtherQueue_notDuplicate() {
    createQueue(QUEUE);
    createQueue(OTHER);

    EnqueueResult a = redrive.enqueue(newMessage(QUEUE).dedupeKey("k").build());
    EnqueueResult b = redrive.enqueue(newMessage(OTHER).dedupeKey("k").build());

    assertThat(b.duplicate()).isFalse();
    assertThat(b.id()).isNotEqualTo(a.id());
  }

  @Test
  void enqueueBatch_sameDedupeKeyTwiceInBatch_storesOne() {
    createQueue(QUEUE);

    List<EnqueueResult> results =
        redrive.enqueueBatch(
            List.of(
                newMessage(QUEUE).dedupeKey("k").build(),
                newMessage(QUEUE).dedupeKey("k").build()));

    assertThat(results.get(1)).isEqualTo(new EnqueueResult(results.get(0).id(), true));
    assertThat(stats(QUEUE).total()).isEqualTo(1);
  }

  @Test
  void enqueue_withDelay_scheduledUntilDelayPassed() {
    createQueue(QUEUE);

    String id = enqueue(newMessage(QUEUE).delay(Duration.ofSeconds(10)).build());

    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(m.visibleAt()).isEqualTo(now().plusSeconds(10));
    advance(Duration.ofSeconds(10).minus(MILLI));
    assertNothingLeasable(QUEUE);
    advance(MILLI);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(id);
  }

  @Test
  void enqueue_queueWithExpireAfter_setsDeadline() {
    createQueue(QUEUE, defaults().withExpireAfter(Duration.ofHours(2)));

    String id = enqueue(QUEUE);

    assertThat(message(id).expireAt()).isEqualTo(now().plus(Duration.ofHours(2)));
  }

  @Test
  void enqueue_messageExpireAfter_overridesQueueDeadline() {
    createQueue(QUEUE, defaults().withExpireAfter(Duration.ofHours(2)));

    String id = enqueue(newMessage(QUEUE).expireAfter(Duration.ofMinutes(5)).build());

    assertThat(message(id).expireAt()).isEqualTo(now().plus(Duration.ofMinutes(5)));
  }

  @Test
  void enqueue_pausedQueue_accepted() {
    createQueue(QUEUE);
    redrive.pauseQueue(QUEUE);

    String id = enqueue(QUEUE);

    assertThat(message(id).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void enqueue_thenLease_deliversSameContent() {
    createQueue(QUEUE);
    String id = enqueue(newMessage(QUEUE).headers(headers()).stream("s").build());

    LeasedMessage leased = leaseOne(QUEUE);

    assertThat(leased.id()).isEqualTo(id);
    assertThat(leased.type()).isEqualTo(TYPE);
    assertThat(leased.payload()).isEqualTo(PAYLOAD);
    assertThat(leased.headers()).isEqualTo(headers());
    assertThat(leased.stream()).isEqualTo("s");
    assertThat(leased.enqueuedAt()).isEqualTo(now());
  }
}
