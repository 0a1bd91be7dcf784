package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.ConflictException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageState;
import io.redrive.store.IdPrefixParams;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Operators may name a message by a unique prefix of its id; the HTTP layer learns a message's
 * queue (to authorise a lease token) by a narrow lookup of its full id.
 */
public abstract class IdPrefixContract extends ComplianceTestBase {

  @Test
  void resolveId_uniquePrefix_givesTheId() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    assertThat(redrive.resolveId(id)).isEqualTo(id);
    assertThat(store.findIdsByPrefix(IdPrefixParams.anyQueue(id.substring(0, 30), 5)))
        .containsExactly(id);
  }

  @Test
  void resolveId_sharedPrefix_isAmbiguousNamingMatches() {
    createQueue(QUEUE);
    List<String> ids = List.of(enqueue(QUEUE), enqueue(QUEUE));
    String shared = commonPrefix(ids.get(0), ids.get(1));
    assertThat(shared.length()).isGreaterThanOrEqualTo(4); // same millisecond part of UUIDv7
    assertThatThrownBy(() -> redrive.resolveId(shared))
        .isInstanceOfSatisfying(
            ConflictException.class, e -> assertThat(e.code()).isEqualTo("AMBIGUOUS_ID"))
        .hasMessageContaining(shared);
  }

  @Test
  void resolveId_amongQueues_ignoresIdsOfOtherQueues() {
    createQueue(QUEUE);
    createQueue("other");
    String other1 = enqueue("other");
    String mine = enqueue(QUEUE);
    String other2 = enqueue("other");
    String shared = commonPrefix(commonPrefix(other1, mine), other2);
    assertThat(shared.length()).isGreaterThanOrEqualTo(4);

    assertThat(redrive.resolveId(shared, List.of(QUEUE))).isEqualTo(mine);
    // in id order (ids of one millisecond differ in their random part)
    assertThat(store.findIdsByPrefix(new IdPrefixParams(shared, "other", 5)))
        .containsExactlyElementsOf(new java.util.TreeSet<>(List.of(other1, other2)));
    assertThatThrownBy(() -> redrive.resolveId(other1, List.of(QUEUE)))
        .isInstanceOf(MessageNotFoundException.class);
    assertThatThrownBy(() -> redrive.resolveId(shared, List.of()))
        .isInstanceOf(MessageNotFoundException.class);
    String mine2 = enqueue(QUEUE);
    assertThatThrownBy(() -> redrive.resolveId(commonPrefix(shared, mine2), List.of(QUEUE)))
        .isInstanceOfSatisfying(
            ConflictException.class, e -> assertThat(e.code()).isEqualTo("AMBIGUOUS_ID"))
        .hasMessageNotContaining(other1)
        .hasMessageNotContaining(other2);
  }

  @Test
  void resolveId_noMatch_isNotFound() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    assertThatThrownBy(() -> redrive.resolveId("ffffffff"))
        .isInstanceOf(MessageNotFoundException.class);
  }

  @Test
  void resolveId_tooShortOrWildcard_isRejectedNamingTheField() {
    assertThatThrownBy(() -> redrive.resolveId("abc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("id: ");
    assertThatThrownBy(() -> redrive.resolveId("ab%c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("id: ");
  }

  @Test
  void queueOf_message_givesItsQueueInEveryLiveState() {
    createQueue(QUEUE);
    createQueue(OTHER);
    String ready = enqueue(QUEUE);
    String other = enqueue(OTHER);
    assertThat(redrive.queueOf(ready)).contains(QUEUE);
    assertThat(store.findQueueOf(other)).contains(OTHER);

    LeasedMessage leased = leaseOne(QUEUE);
    assertThat(redrive.queueOf(leased.id())).contains(QUEUE);
    createQueue("graveyard");
    String dead = enqueueAndKill("graveyard");
    assertThat(message(dead).state()).isEqualTo(MessageState.DEAD);
    assertThat(redrive.queueOf(dead)).contains("graveyard");
  }

  @Test
  void queueOf_goneOrUnknownMessage_isEmpty() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage m = leaseOne(QUEUE);
    complete(m);

    assertThat(redrive.queueOf(m.id())).isEmpty();
    assertThat(redrive.queueOf("00000000-0000-7000-8000-000000000000")).isEmpty();
    // a full id only: a prefix names no message here
    String id = enqueue(QUEUE);
    assertThat(redrive.queueOf(id.substring(0, 30))).isEmpty();
  }

  @Test
  void queueOf_blankId_isRejectedNamingTheField() {
    assertThatThrownBy(() -> redrive.queueOf(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("id: ");
  }

  private static String commonPrefix(String a, String b) {
    int i = 0;
    while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return a.substring(0, i);
  }
}
