package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.lease.LeasedMessage;
import io.redrive.message.EnqueueResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.NewMessage;
import io.redrive.message.OnDuplicate;
import io.redrive.message.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Unique keys while waiting (docs/engine.md, "Unique and debounced messages"): a second enqueue
 * with the key of a message that waits keeps it (a duplicate) or replaces its content in place;
 * debounce pushes the visible time on with each enqueue; batches meet their own earlier messages;
 * bad input changes nothing.
 */
public abstract class UniqueKeyContract extends ComplianceTestBase {
  private static final String KEY = "user-42";

  @BeforeEach
  void createQueues() {
    createQueue(QUEUE);
  }

  private NewMessage.Builder keyed(String payload) {
    return newMessage(QUEUE).payload(payload).uniqueKey(KEY);
  }

  @Test
  void keep_secondEnqueueWhileWaiting_storesNothingAndNamesTheWaitingMessage() {
    EnqueueResult first = redrive.enqueue(keyed("{\"n\":1}").build());
    EnqueueResult second = redrive.enqueue(keyed("{\"n\":2}").build());

    assertThat(first.created()).isTrue();
    assertThat(second).isEqualTo(new EnqueueResult(first.id(), true, false));
    assertThat(stats(QUEUE).total()).isEqualTo(1);
    Message m = message(first.id());
    assertThat(m.payload()).isEqualTo("{\"n\":1}");
    assertThat(m.uniqueKey()).isEqualTo(KEY);
    assertThat(m.history()).isEmpty();
    assertThat(messagesIn(QUEUE)).extracting(Message::uniqueKey).containsExactly(KEY);
    leaseOne(QUEUE);
    assertThat(messagesIn(QUEUE)).extracting(Message::uniqueKey).containsOnlyNulls();
  }

  @Test
  void keyIsPerQueue_sameKeyInAnotherQueue_isItsOwnMessage() {
    createQueue(OTHER);
    String first = enqueue(keyed("{}").build());

    EnqueueResult other = redrive.enqueue(NewMessage.builder(OTHER, TYPE).uniqueKey(KEY).build());

    assertThat(other.created()).isTrue();
    assertThat(other.id()).isNotEqualTo(first);
  }

  @Test
  void replace_whileWaiting_takesPayloadHeadersAndDelay_keepsIdAndPlaceInLine() {
    String before = enqueue(QUEUE);
    String holder = enqueue(keyed("{\"v\":1}").onDuplicate(OnDuplicate.REPLACE).build());
    String after = enqueue(QUEUE);

    EnqueueResult r =
        redrive.enqueue(
            keyed("{\"v\":2}")
                .onDuplicate(OnDuplicate.REPLACE)
                .headers(Map.of("tenant", "acme"))
                .expireAfter(Duration.ofHours(2))
                .build());

    assertThat(r).isEqualTo(EnqueueResult.replacedBy(holder));
    assertThat(r.created()).isFalse();
    Message m = message(holder);
    assertThat(m.payload()).isEqualTo("{\"v\":2}");
    assertThat(m.headers()).isEqualTo(Map.of("tenant", "acme"));
    assertThat(m.expireAt()).isEqualTo(now().plus(Duration.ofHours(2)));
    assertThat(m.uniqueKey()).isEqualTo(KEY);
    HistoryEntry entry = last(m);
    assertThat(entry.outcome()).isEqualTo(Outcome.REPLACED);
    assertThat(entry.settledAt()).isEqualTo(now());
    assertThat(entry.attempt()).isZero();
    assertThat(entry.note()).contains("replaced");
    assertThat(stats(QUEUE).total()).isEqualTo(3);
    assertThat(ids(lease(QUEUE, 3))).containsExactly(before, holder, after);
  }

  @Test
  void replace_delayOfTheReplacingEnqueue_isTheNewVisibleTime() {
    String holder = enqueue(keyed("{}").onDuplicate(OnDuplicate.REPLACE).build());
    advance(Duration.ofSeconds(5));

    redrive.enqueue(
        keyed("{}").onDuplicate(OnDuplicate.REPLACE).delay(Duration.ofMinutes(1)).build());

    assertThat(message(holder).visibleAt()).isEqualTo(now().plus(Duration.ofMinutes(1)));
    assertNothingLeasable(QUEUE);
  }

  @Test
  void replace_manyTimes_historyKeepsOneReplacedEntry_theLatest() {
    String holder = enqueue(keyed("{}").onDuplicate(OnDuplicate.REPLACE).build());
    for (int i = 0; i < 5; i++) {
      advance(Duration.ofSeconds(1));
      redrive.enqueue(keyed("{\"i\":" + i + "}").onDuplicate(OnDuplicate.REPLACE).build());
    }

    Message m = message(holder);
    assertThat(m.history()).extracting(HistoryEntry::outcome).containsExactly(Outcome.REPLACED);
    assertThat(last(m).settledAt()).isEqualTo(now());
    assertThat(m.payload()).isEqualTo("{\"i\":4}");
  }

  @Test
  void replace_otherType_refusedNamingBothTypes_changesNothing() {
    String holder = enqueue(keyed("{\"v\":1}").build());

    assertThatThrownBy(
            () ->
                redrive.enqueue(
                    NewMessage.builder(QUEUE, "other-type")
                        .payload("{\"v\":2}")
                        .uniqueKey(KEY)
                        .onDuplicate(OnDuplicate.REPLACE)
                        .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TYPE)
        .hasMessageContaining("other-type");

    assertThat(message(holder).payload()).isEqualTo("{\"v\":1}");
    assertThat(message(holder).history()).isEmpty();
  }

  @Test
  void debounce_eachEnqueuePushesTheWindow_onlyTheLastRunsOnce() {
    Duration window = Duration.ofSeconds(10);
    EnqueueResult first = redrive.enqueue(keyed("{\"n\":1}").debounce(window).build());
    assertThat(message(first.id()).visibleAt()).isEqualTo(now().plus(window));
    advance(Duration.ofSeconds(5));

    EnqueueResult second = redrive.enqueue(keyed("{\"n\":2}").debounce(window).build());

    assertThat(second).isEqualTo(EnqueueResult.replacedBy(first.id()));
    assertThat(message(first.id()).visibleAt()).isEqualTo(now().plus(window));
    advance(window.minus(MILLI));
    assertNothingLeasable(QUEUE);
    advance(MILLI);
    LeasedMessage leased = leaseOne(QUEUE);
    assertThat(leased.id()).isEqualTo(first.id());
    assertThat(leased.payload()).isEqualTo("{\"n\":2}");
    assertThat(stats(QUEUE).total()).isEqualTo(1);

    EnqueueResult afterStart = redrive.enqueue(keyed("{\"n\":3}").debounce(window).build());
    assertThat(afterStart.created()).isTrue();
    assertThat(afterStart.id()).isNotEqualTo(first.id());
  }

  @Test
  void batch_repeatedKey_replaceLastWins_keepFirstStays() {
    List<EnqueueResult> replaced =
        redrive.enqueueBatch(
            List.of(
                keyed("{\"n\":1}").onDuplicate(OnDuplicate.REPLACE).build(),
                newMessage(QUEUE).build(),
                keyed("{\"n\":2}").onDuplicate(OnDuplicate.REPLACE).build()));

    assertThat(replaced.get(0).created()).isTrue();
    assertThat(replaced.get(1).created()).isTrue();
    assertThat(replaced.get(2)).isEqualTo(EnqueueResult.replacedBy(replaced.get(0).id()));
    assertThat(message(replaced.get(0).id()).payload()).isEqualTo("{\"n\":2}");
    assertThat(ids(lease(QUEUE, 5))).containsExactly(replaced.get(0).id(), replaced.get(1).id());

    List<EnqueueResult> kept =
        redrive.enqueueBatch(
            List.of(
                keyed("{\"k\":1}").build(), keyed("{\"k\":2}").build(), newMessage(QUEUE).build()));
    assertThat(kept.get(0).created()).isTrue();
    assertThat(kept.get(1)).isEqualTo(new EnqueueResult(kept.get(0).id(), true));
    assertThat(kept.get(2).created()).isTrue();
    assertThat(message(kept.get(0).id()).payload()).isEqualTo("{\"k\":1}");
  }

  @Test
  void badInput_refusedNamingTheOption_changesNothing() {
    assertRefused(keyed("{}").dedupeKey("d-1"), "uniqueKey", "dedupeKey");
    assertRefused(newMessage(QUEUE).debounce(Duration.ofSeconds(1)), "debounce", "uniqueKey");
    assertRefused(newMessage(QUEUE).onDuplicate(OnDuplicate.REPLACE), "onDuplicate", "uniqueKey");
    assertRefused(keyed("{}").debounce(Duration.ZERO), "debounce", "0");
    assertRefused(keyed("{}").debounce(Duration.ofDays(31)), "debounce", "31d");
    assertRefused(
        keyed("{}").debounce(Duration.ofSeconds(1)).onDuplicate(OnDuplicate.KEEP),
        "debounce",
        "keep");
    assertRefused(
        keyed("{}").debounce(Duration.ofSeconds(1)).delay(Duration.ofSeconds(1)),
        "debounce",
        "delay");
    assertRefused(keyed("{}").uniqueKey(" "), "uniqueKey", "blank");
    assertThatThrownBy(
            () ->
                redrive.enqueueBatch(
                    List.of(keyed("{}").build(), keyed("{}").dedupeKey("d").build())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("messages[1].uniqueKey");
    assertThat(stats(QUEUE).total()).isZero();
  }

  private void assertRefused(NewMessage.Builder message, String option, String detail) {
    assertThatThrownBy(() -> redrive.enqueue(message.build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(option)
        .hasMessageContaining(detail);
    assertThat(stats(QUEUE).total()).isZero();
  }
}
