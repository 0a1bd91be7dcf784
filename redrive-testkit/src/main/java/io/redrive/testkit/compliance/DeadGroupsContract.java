package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.deadletter.DeadGroup;
import io.redrive.deadletter.DeadGroupPage;
import io.redrive.deadletter.DeadGroupQuery;
import io.redrive.deadletter.DropFilter;
import io.redrive.deadletter.Fingerprint;
import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueueUpdate;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Dead-letter groups: dead messages counted by the fingerprint of their cause, per queue and across
 * queues, with the fingerprint as a filter of listing, drop, redrive and retry; rows dead before
 * fingerprints were stored still counted.
 */
public abstract class DeadGroupsContract extends ComplianceTestBase {
  private static final String CHARGE = "charge-card";

  private static String trace(String exception, String method, int line) {
    return exception
        + ": order failed\n"
        + "\tat com.shop.Billing."
        + method
        + "(Billing.java:"
        + line
        + ")\n"
        + "\tat com.shop.Worker.handle(Worker.java:40)\n"
        + "\tat io.redrive.worker.Run.call(Run.java:12)\n";
  }

  private static String illegalState(int line) {
    return trace("java.lang.IllegalStateException", "charge", line);
  }

  /** Enqueues one message of {@code type} into {@code queue} and fails it for good. */
  private String kill(String queue, String type, String message, String stackTrace) {
    String id = enqueue(NewMessage.builder(queue, type).payload(PAYLOAD).build());
    LeasedMessage leased = leaseOne(queue);
    assertThat(leased.id()).isEqualTo(id);
    redrive.fail(
        FailRequest.of(leased.token(), FailureReason.HANDLER_EXCEPTION, message)
            .withRetryable(false)
            .withStackTrace(stackTrace));
    return id;
  }

  private LeasedMessage leaseOne(String queue, String expectedId) {
    LeasedMessage leased = leaseOne(queue);
    assertThat(leased.id()).isEqualTo(expectedId);
    return leased;
  }

  private String kill(String queue, int orderNumber) {
    return kill(queue, TYPE, "order " + orderNumber + " failed", illegalState(orderNumber));
  }

  private List<DeadGroup> groups(String queue) {
    return redrive.deadGroups(queue, 100).groups();
  }

  private List<String> listIds(String queue, String fingerprint) {
    return redrive
        .listMessages(MessageQuery.all(queue).withFingerprint(fingerprint))
        .messages()
        .stream()
        .map(Message::id)
        .toList();
  }

  @Test
  void groupDead_handlerExceptionsDifferingOnlyInNumbers_formOneGroup() {
    createQueue(QUEUE);
    String first = kill(QUEUE, 17);
    advance(Duration.ofSeconds(5));
    kill(QUEUE, 4242);
    advance(Duration.ofSeconds(5));
    String last = kill(QUEUE, 9);

    List<DeadGroup> groups = groups(QUEUE);

    assertThat(groups).hasSize(1);
    DeadGroup g = groups.get(0);
    assertThat(g.queue()).isEqualTo(QUEUE);
    assertThat(g.count()).isEqualTo(3);
    assertThat(g.deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(g.type()).isEqualTo(TYPE);
    assertThat(g.firstDeadAt()).isEqualTo(message(first).deadAt());
    assertThat(g.lastDeadAt()).isEqualTo(message(last).deadAt());
    assertThat(g.sampleId()).isEqualTo(last);
    assertThat(g.sampleCause().message()).isEqualTo("order 9 failed");
    assertThat(g.fingerprint()).matches("[0-9a-f]{16}");
    assertThat(g.pieces().key()).isEqualTo(g.fingerprint());
    assertThat(g.pieces().pattern()).isEqualTo("order <n> failed");
    assertThat(g.pieces().exceptionClass()).isEqualTo("java.lang.IllegalStateException");
    assertThat(g.pieces().frames())
        .containsExactly(
            "com.shop.Billing.charge", "com.shop.Worker.handle", "io.redrive.worker.Run.call");
  }

  @Test
  void groupDead_otherExceptionOrFrameOrType_splitLargestFirst() {
    createQueue(QUEUE);
    kill(QUEUE, 1);
    kill(QUEUE, 2);
    kill(QUEUE, 3);
    kill(QUEUE, TYPE, "order 4 failed", trace("java.io.UncheckedIOException", "charge", 4));
    kill(QUEUE, TYPE, "order 5 failed", trace("java.io.UncheckedIOException", "charge", 5));
    kill(QUEUE, TYPE, "order 6 failed", trace("java.lang.IllegalStateException", "refund", 6));
    kill(QUEUE, CHARGE, "order 7 failed", illegalState(7));

    List<DeadGroup> groups = groups(QUEUE);

    assertThat(groups).extracting(DeadGroup::count).containsExactly(3L, 2L, 1L, 1L);
    assertThat(groups).extracting(DeadGroup::fingerprint).doesNotHaveDuplicates();
    assertThat(groups.get(1).pieces().exceptionClass()).isEqualTo("java.io.UncheckedIOException");
    // Ties in count come in key order, so pages are stable.
    assertThat(groups.get(2).fingerprint()).isLessThan(groups.get(3).fingerprint());
    assertThat(groups.stream().mapToLong(DeadGroup::count).sum()).isEqualTo(stats(QUEUE).dead());
  }

  @Test
  void groupDead_poison_groupsByTheFailureBeforeIt() {
    createQueue(QUEUE);
    // Two messages fail once each, then a lower limit makes their next fetch poison them.
    for (int n = 1; n <= 2; n++) {
      LeasedMessage leased = leaseOne(QUEUE, enqueue(QUEUE));
      redrive.fail(
          FailRequest.of(leased.token(), FailureReason.HANDLER_EXCEPTION, "order " + n + " failed")
              .withRetryAfter(MILLI)
              .withStackTrace(illegalState(n)));
    }
    redrive.updateQueue(QUEUE, QueueUpdate.builder().maxAttempts(1).build());
    advance(Duration.ofSeconds(1));
    assertNothingLeasable(QUEUE);
    // A message whose only attempt ran out of lease dies as POISON of LEASE_EXPIRED.
    enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(1));
    advance(Duration.ofSeconds(2));
    assertNothingLeasable(QUEUE);

    List<DeadGroup> groups = groups(QUEUE);

    DeadGroup handler =
        groups.stream()
            .filter(g -> g.pieces().causeReason() == FailureReason.HANDLER_EXCEPTION)
            .findFirst()
            .orElseThrow();
    assertThat(handler.count()).isEqualTo(2);
    assertThat(handler.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(handler.pieces().pattern()).isEqualTo("order <n> failed");
    assertThat(handler.sampleCause().reason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    DeadGroup crashed =
        groups.stream()
            .filter(g -> g.pieces().causeReason() == FailureReason.LEASE_EXPIRED)
            .findFirst()
            .orElseThrow();
    assertThat(crashed.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(crashed.count()).isEqualTo(1);
  }

  @Test
  void groupDead_deadLetterQueueCopies_carryTheFingerprint() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    kill(QUEUE, 1);
    kill(QUEUE, 2);

    List<DeadGroup> groups = groups(DLQ);

    assertThat(groups).hasSize(1);
    assertThat(groups.get(0).count()).isEqualTo(2);
    assertThat(groups.get(0).queue()).isEqualTo(DLQ);
    assertThat(groups.get(0).pieces().pattern()).isEqualTo("order <n> failed");
    assertThat(groups(QUEUE)).isEmpty();
  }

  @Test
  void groupDead_retryLeavesTheGroupAndANewDeathRegroups() {
    createQueue(QUEUE);
    String a = kill(QUEUE, 1);
    kill(QUEUE, 2);
    String key = groups(QUEUE).get(0).fingerprint();

    redrive.retry(a);

    assertThat(groups(QUEUE)).extracting(DeadGroup::count).containsExactly(1L);
    assertThat(listIds(QUEUE, key)).doesNotContain(a);

    LeasedMessage again = leaseOne(QUEUE);
    assertThat(again.id()).isEqualTo(a);
    redrive.fail(
        FailRequest.of(again.token(), FailureReason.VALIDATION_FAILURE, "amount -3 invalid"));

    List<DeadGroup> groups = groups(QUEUE);
    assertThat(groups).hasSize(2);
    assertThat(groups)
        .filteredOn(g -> g.sampleId().equals(a))
        .singleElement()
        .satisfies(
            g -> {
              assertThat(g.deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
              assertThat(g.pieces().pattern()).isEqualTo("amount <n> invalid");
            });
  }

  @Test
  void groupDead_perQueueAndAllQueuesAndPages() {
    createQueue(QUEUE);
    createQueue(OTHER);
    kill(QUEUE, 1);
    kill(QUEUE, 2);
    kill(OTHER, 3);
    kill(OTHER, CHARGE, "card 4111 declined", null);

    DeadGroupPage all = redrive.deadGroups(DeadGroupQuery.allQueues());
    assertThat(all.groups())
        .extracting(DeadGroup::queue, DeadGroup::count)
        .first()
        .isEqualTo(org.assertj.core.groups.Tuple.tuple(QUEUE, 2L));
    assertThat(all.groups()).hasSize(3);
    assertThat(all.nextOffset()).isNull();
    // The same cause in two queues is one fingerprint in two groups.
    assertThat(all.groups().get(0).fingerprint())
        .isEqualTo(
            groups(OTHER).stream()
                .filter(g -> g.type().equals(TYPE))
                .findFirst()
                .orElseThrow()
                .fingerprint());

    assertThat(groups(OTHER)).extracting(DeadGroup::queue).containsOnly(OTHER).hasSize(2);
    assertThat(redrive.deadGroups(DeadGroupQuery.allQueues().withQueues(Set.of(OTHER))).groups())
        .hasSize(2);
    assertThat(redrive.deadGroups(DeadGroupQuery.allQueues().withQueues(Set.of())).groups())
        .isEmpty();
    assertThat(groups("no-such-queue")).isEmpty();

    DeadGroupPage first = redrive.deadGroups(DeadGroupQuery.allQueues().withLimit(2));
    assertThat(first.groups()).hasSize(2);
    assertThat(first.nextOffset()).isEqualTo(2);
    DeadGroupPage second =
        redrive.deadGroups(DeadGroupQuery.allQueues().withLimit(2).withOffset(2));
    assertThat(second.groups()).hasSize(1);
    assertThat(second.nextOffset()).isNull();
    assertThat(List.of(first.groups().get(0), first.groups().get(1), second.groups().get(0)))
        .isEqualTo(all.groups());
  }

  @Test
  void groupDead_badQuery_isRefusedNamingTheField() {
    assertThatThrownBy(() -> redrive.deadGroups(DeadGroupQuery.allQueues().withLimit(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limit");
    assertThatThrownBy(() -> redrive.deadGroups(DeadGroupQuery.allQueues().withOffset(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("offset");
    assertThatThrownBy(
            () -> redrive.listMessages(MessageQuery.all(QUEUE).withFingerprint("not-a-key")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fingerprint");
    assertThatThrownBy(() -> redrive.listMessages(MessageQuery.all(QUEUE).withMinAttempts(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minAttempts");
  }

  @Test
  void fingerprintFilter_listDropAndRetry_actOnOneGroup() {
    createQueue(QUEUE);
    String a = kill(QUEUE, 1);
    String b = kill(QUEUE, 2);
    String other = kill(QUEUE, TYPE, "disk full", trace("java.io.IOException", "write", 1));
    enqueue(QUEUE); // a ready message is never in a group
    String key = groups(QUEUE).get(0).fingerprint();

    assertThat(listIds(QUEUE, key)).containsExactly(a, b);
    assertThat(
            redrive
                .listMessages(
                    MessageQuery.all(QUEUE)
                        .withStates(Set.of(MessageState.DEAD))
                        .withFingerprint(key))
                .messages())
        .hasSize(2);

    // Retry by filter pages the group's messages and retries them by id.
    redrive.retry(listIds(QUEUE, key), "ops");
    assertThat(message(a).state()).isEqualTo(MessageState.READY);
    assertThat(message(other).state()).isEqualTo(MessageState.DEAD);
    assertThat(listIds(QUEUE, key)).isEmpty();

    String otherKey = groups(QUEUE).get(0).fingerprint();
    assertThat(
            redrive
                .dropMatching(new DropFilter(QUEUE, null, null, null, 100).withFingerprint(key))
                .dropped())
        .isEmpty();
    assertThat(
            redrive
                .dropMatching(
                    new DropFilter(QUEUE, null, null, null, 100).withFingerprint(otherKey))
                .dropped())
        .containsExactly(other);
    assertThat(stats(QUEUE).dead()).isZero();
    assertThat(stats(QUEUE).total()).isEqualTo(3);
  }

  @Test
  void fingerprintFilter_redrive_movesOnlyThatGroup() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    kill(QUEUE, 1);
    kill(QUEUE, 2);
    kill(QUEUE, CHARGE, "card declined", null);
    DeadGroup big = groups(DLQ).get(0);
    assertThat(big.count()).isEqualTo(2);

    var dry =
        redrive.redrive(
            RedriveRequest.all(DLQ).withFingerprint(big.fingerprint()).withDryRun(true));
    assertThat(dry.moves()).hasSize(2);
    assertThat(stats(DLQ).dead()).isEqualTo(3);

    var moved = redrive.redrive(RedriveRequest.all(DLQ).withFingerprint(big.fingerprint()));

    assertThat(moved.moves()).hasSize(2);
    assertThat(groups(DLQ)).singleElement().extracting(DeadGroup::type).isEqualTo(CHARGE);
    assertThat(stats(QUEUE).ready()).isEqualTo(2);
  }

  @Test
  void groupDead_importedDeadMessages_groupByTypeAsUnknown() {
    createQueue(DLQ);
    redrive.importMessages(
        DLQ,
        List.of(
            new ImportMessage("s-1", QUEUE, TYPE, PAYLOAD, Map.of(), null, true),
            new ImportMessage("s-2", QUEUE, TYPE, PAYLOAD, Map.of(), null, true),
            new ImportMessage("s-3", QUEUE, CHARGE, PAYLOAD, Map.of(), null, true),
            new ImportMessage("s-4", QUEUE, CHARGE, PAYLOAD, Map.of(), null, false)));

    List<DeadGroup> groups = groups(DLQ);

    assertThat(groups)
        .extracting(DeadGroup::type, DeadGroup::count)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(TYPE, 2L),
            org.assertj.core.groups.Tuple.tuple(CHARGE, 1L));
    assertThat(groups.get(0).deadReason()).isEqualTo(FailureReason.UNKNOWN);
    assertThat(groups.get(0).sampleCause()).isNull();
    assertThat(groups.get(0).fingerprint())
        .isEqualTo(
            Fingerprint.of(FailureReason.UNKNOWN, TYPE, (io.redrive.failure.FailureRecord) null)
                .key());
  }

  @Test
  void groupDead_rowsWithoutFingerprint_areFingerprintedAndCounted() throws SQLException {
    createQueue(QUEUE);
    createQueue(OTHER);
    kill(QUEUE, 1);
    kill(QUEUE, 2);
    kill(OTHER, 3);
    String key = groups(QUEUE).get(0).fingerprint();
    forgetFingerprints();

    // A fingerprint filter fills its queue's rows first.
    assertThat(listIds(QUEUE, key)).hasSize(2);
    forgetFingerprints();

    List<DeadGroup> all = redrive.deadGroups(DeadGroupQuery.allQueues()).groups();

    assertThat(all).extracting(DeadGroup::count).containsExactly(2L, 1L);
    assertThat(all).extracting(DeadGroup::fingerprint).containsOnly(key);
    assertThat(all.get(0).sampleCause().message()).isEqualTo("order 2 failed");
  }

  /** Makes every dead row look dead since before fingerprints were stored. */
  private void forgetFingerprints() throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE redrive_messages SET dead_fingerprint = NULL");
    }
  }

  @Test
  void listMessages_minAttempts_keepsMessagesNearTheirLimit() {
    createQueue(QUEUE, defaults().withMaxAttempts(3));
    String tried = enqueue(QUEUE);
    LeasedMessage first = leaseOne(QUEUE);
    assertThat(first.id()).isEqualTo(tried);
    failRetryAfter(first, MILLI);
    advance(Duration.ofSeconds(1));
    LeasedMessage second = leaseOne(QUEUE);
    assertThat(second.id()).isEqualTo(tried);
    failRetryAfter(second, Duration.ofMinutes(1));
    String fresh = enqueue(QUEUE);

    List<String> candidates =
        redrive
            .listMessages(
                MessageQuery.all(QUEUE)
                    .withStates(Set.of(MessageState.READY, MessageState.SCHEDULED))
                    .withMinAttempts(2))
            .messages()
            .stream()
            .map(Message::id)
            .toList();

    assertThat(candidates).containsExactly(tried);
    assertThat(redrive.listMessages(MessageQuery.all(QUEUE)).messages())
        .extracting(Message::id)
        .containsExactly(tried, fresh);
  }
}
