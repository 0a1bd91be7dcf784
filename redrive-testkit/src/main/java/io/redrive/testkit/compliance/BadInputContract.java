package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.redrive.PayloadTooLargeException;
import io.redrive.Redrive;
import io.redrive.deadletter.DropFilter;
import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.queue.QueueUpdate;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public entry point given bad input throws a clear exception that names the field (or the
 * missing thing) and changes nothing: queues, stats and messages read back identical afterwards.
 */
public abstract class BadInputContract extends ComplianceTestBase {
  private static final String LONG_NAME = repeat('n', 201);

  /** What a case does, against this test's engine and its leased message. */
  @FunctionalInterface
  interface Call {
    void run(BadInputContract t) throws Exception;
  }

  /** One bad input: the exception types accepted and a text the message must contain. */
  record BadInput(
      String name, List<Class<? extends Throwable>> accepted, String mentions, Call call) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** What "nothing changed" compares. */
  private record Snapshot(
      List<Queue> queues, QueueStats stats, List<Message> messages, Message leased) {}

  private LeasedMessage leased;
  private String readyId;

  @BeforeEach
  void createQueueWithMessages() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    readyId = enqueue(QUEUE);
    leased = leaseOne(QUEUE);
  }

  private Snapshot snapshot() {
    return new Snapshot(
        redrive.listQueues(), stats(QUEUE), messagesIn(QUEUE), message(leased.id()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void call_badInput_throwsNamingTheProblemAndChangesNothing(BadInput input) {
    Snapshot before = snapshot();

    Throwable thrown = catchThrowable(() -> input.call().run(this));

    assertThat(thrown).as(input.name()).isNotNull();
    assertThat(input.accepted())
        .as("%s threw %s", input.name(), thrown)
        .anySatisfy(type -> assertThat(thrown).isInstanceOf(type));
    assertThat(thrown.getMessage()).as(input.name()).isNotNull().contains(input.mentions());
    assertThat(snapshot()).as("state after %s", input.name()).isEqualTo(before);
  }

  // ---- the cases ----

  private static BadInput iae(String name, String mentions, Call call) {
    return new BadInput(name, List.of(IllegalArgumentException.class), mentions, call);
  }

  private static BadInput error(
      String name, Class<? extends Throwable> type, String mentions, Call call) {
    return new BadInput(name, List.of(type), mentions, call);
  }

  /**
   * A null where the engine uses {@code Objects.requireNonNull}: the Javadoc promises {@link
   * IllegalArgumentException}, the engine currently throws {@link NullPointerException}.
   */
  private static BadInput nullArgument(String name, String mentions, Call call) {
    return new BadInput(
        name, List.of(IllegalArgumentException.class, NullPointerException.class), mentions, call);
  }

  private static NewMessage.Builder msg() {
    return NewMessage.builder(QUEUE, TYPE).payload(PAYLOAD);
  }

  static Stream<BadInput> badInputs() {
    return Stream.of(
            queueCases(),
            enqueueCases(),
            leaseCases(),
            settleCases(),
            operatorCases(),
            textCases(),
            nulCases())
        .flatMap(List::stream);
  }

  private static List<BadInput> queueCases() {
    return List.of(
        iae("createQueue null name", "name", t -> t.redrive.createQueue(null)),
        iae("createQueue empty name", "name", t -> t.redrive.createQueue("")),
        iae("createQueue 201-char name", "name", t -> t.redrive.createQueue(LONG_NAME)),
        iae("createQueue name with space", "name", t -> t.redrive.createQueue("bad name")),
        nullArgument("createQueue null policy", "policy", t -> t.redrive.createQueue(OTHER, null)),
        iae(
            "createQueue own dead-letter queue",
            "deadLetterQueue",
            t -> t.redrive.createQueue(OTHER, defaults().withDeadLetter(DeadLetter.moveTo(OTHER)))),
        error(
            "createQueue existing name",
            io.redrive.error.ConflictException.class,
            QUEUE,
            t -> t.redrive.createQueue(QUEUE, defaults().withMaxAttempts(9))),
        iae("policy maxAttempts 0", "maxAttempts", t -> defaults().withMaxAttempts(0)),
        iae("policy maxAttempts 10001", "maxAttempts", t -> defaults().withMaxAttempts(10_001)),
        iae(
            "policy leaseTimeout 0",
            "leaseTimeout",
            t -> defaults().withLeaseTimeout(Duration.ZERO)),
        iae(
            "policy leaseTimeout 13h",
            "leaseTimeout",
            t -> defaults().withLeaseTimeout(Duration.ofHours(13))),
        iae(
            "policy retry attempts -1",
            "retry.attempts",
            t -> defaults().withRetry(-1, Duration.ZERO)),
        iae(
            "policy negative cooldown",
            "retry.cooldown",
            t -> defaults().withRetry(3, Duration.ofSeconds(-1))),
        iae("updateQueue null update", "update", t -> t.redrive.updateQueue(QUEUE, null)),
        iae(
            "updateQueue 201-char name",
            "name",
            t -> t.redrive.updateQueue(LONG_NAME, QueueUpdate.builder().maxAttempts(2).build())),
        iae(
            "updateQueue maxAttempts 0",
            "maxAttempts",
            t -> t.redrive.updateQueue(QUEUE, QueueUpdate.builder().maxAttempts(0).build())),
        iae(
            "updateQueue leaseTimeout 0",
            "leaseTimeout",
            t ->
                t.redrive.updateQueue(
                    QUEUE, QueueUpdate.builder().leaseTimeout(Duration.ZERO).build())),
        iae(
            "updateQueue negative expireAfter",
            "expireAfter",
            t ->
                t.redrive.updateQueue(
                    QUEUE, QueueUpdate.builder().expireAfter(Duration.ofSeconds(-1)).build())),
        iae(
            "updateQueue own dead-letter queue",
            "deadLetterQueue",
            t ->
                t.redrive.updateQueue(
                    QUEUE, QueueUpdate.builder().deadLetter(DeadLetter.moveTo(QUEUE)).build())),
        error(
            "updateQueue unknown queue",
            QueueNotFoundException.class,
            "nope",
            t -> t.redrive.updateQueue("nope", QueueUpdate.builder().maxAttempts(2).build())),
        error(
            "getQueue unknown queue",
            QueueNotFoundException.class,
            "nope",
            t -> t.redrive.getQueue("nope")),
        iae("deleteQueue invalid name", "name", t -> t.redrive.deleteQueue("bad/name")),
        error(
            "deleteQueue unknown queue",
            QueueNotFoundException.class,
            "nope",
            t -> t.redrive.deleteQueue("nope")),
        iae("pauseQueue empty name", "name", t -> t.redrive.pauseQueue("")),
        error(
            "pauseQueue unknown queue",
            QueueNotFoundException.class,
            "nope",
            t -> t.redrive.pauseQueue("nope")),
        iae(
            "builder maxPayloadBytes 0",
            "maxPayloadBytes",
            t -> Redrive.builder(t.store).maxPayloadBytes(0)),
        iae("builder null clock", "clock", t -> Redrive.builder(t.store).clock(null)));
  }

  private static List<BadInput> enqueueCases() {
    Map<String, String> tooManyHeaders = new HashMap<>();
    for (int i = 0; i < 65; i++) {
      tooManyHeaders.put("h" + i, "v");
    }
    return List.of(
        nullArgument("enqueue null message", "message", t -> t.redrive.enqueue((NewMessage) null)),
        iae(
            "enqueue null queue",
            "queue",
            t -> t.redrive.enqueue(NewMessage.builder(null, TYPE).build())),
        iae(
            "enqueue invalid queue name",
            "queue",
            t -> t.redrive.enqueue(NewMessage.builder("a b", TYPE).build())),
        error(
            "enqueue unknown queue",
            QueueNotFoundException.class,
            "nope",
            t -> t.redrive.enqueue(NewMessage.builder("nope", TYPE).build())),
        iae(
            "enqueue null type",
            "type",
            t -> t.redrive.enqueue(NewMessage.builder(QUEUE, null).build())),
        iae(
            "enqueue blank type",
            "type",
            t -> t.redrive.enqueue(NewMessage.builder(QUEUE, " ").build())),
        iae(
            "enqueue 201-char type",
            "type",
            t -> t.redrive.enqueue(NewMessage.builder(QUEUE, LONG_NAME).build())),
        iae("enqueue null payload", "payload", t -> t.redrive.enqueue(msg().payload(null).build())),
        error(
            "enqueue oversized payload",
            PayloadTooLargeException.class,
            "payload",
            t -> t.redrive.enqueue(msg().payload(repeat('x', 256 * 1024 + 1)).build())),
        iae(
            "enqueue negative delay",
            "delay",
            t -> t.redrive.enqueue(msg().delay(Duration.ofSeconds(-1)).build())),
        iae(
            "enqueue delay over 365d",
            "delay",
            t -> t.redrive.enqueue(msg().delay(Duration.ofDays(366)).build())),
        iae(
            "enqueue zero expireAfter",
            "expireAfter",
            t -> t.redrive.enqueue(msg().expireAfter(Duration.ZERO).build())),
        iae(
            "enqueue 201-char stream",
            "stream",
            t -> t.redrive.enqueue(msg().stream(LONG_NAME).build())),
        iae(
            "enqueue blank dedupeKey",
            "dedupeKey",
            t -> t.redrive.enqueue(msg().dedupeKey("").build())),
        iae(
            "enqueue blank header key",
            "headers",
            t -> t.redrive.enqueue(msg().headers(Map.of(" ", "v")).build())),
        iae(
            "enqueue header value too long",
            "headers",
            t -> t.redrive.enqueue(msg().headers(Map.of("k", repeat('v', 4097))).build())),
        iae(
            "enqueue 65 headers",
            "headers",
            t -> t.redrive.enqueue(msg().headers(tooManyHeaders).build())),
        iae("enqueueBatch null", "messages", t -> t.redrive.enqueueBatch(null)),
        iae("enqueueBatch empty", "messages", t -> t.redrive.enqueueBatch(List.of())),
        iae(
            "enqueueBatch 1001 messages",
            "messages",
            t -> {
              List<NewMessage> many = new ArrayList<>();
              for (int i = 0; i < 1001; i++) {
                many.add(msg().build());
              }
              t.redrive.enqueueBatch(many);
            }),
        iae(
            "enqueueBatch second message invalid",
            "messages[1].type",
            t ->
                t.redrive.enqueueBatch(
                    List.of(msg().build(), NewMessage.builder(QUEUE, "").build()))),
        error(
            "enqueueBatch second message to unknown queue",
            QueueNotFoundException.class,
            "nope",
            t ->
                t.redrive.enqueueBatch(
                    List.of(
                        msg().build(), NewMessage.builder("nope", TYPE).build(), msg().build()))),
        iae(
            "enqueue on null connection",
            "connection",
            t -> t.redrive.enqueue(null, msg().build())));
  }

  private static List<BadInput> leaseCases() {
    return List.of(
        iae("lease null request", "request", t -> t.redrive.lease(null)),
        iae("lease max 0", "max", t -> t.redrive.lease(LeaseRequest.of(QUEUE, WORKER, 0))),
        iae("lease max 1001", "max", t -> t.redrive.lease(LeaseRequest.of(QUEUE, WORKER, 1001))),
        iae("lease max -1", "max", t -> t.redrive.lease(LeaseRequest.of(QUEUE, WORKER, -1))),
        iae("lease null worker", "worker", t -> t.redrive.lease(LeaseRequest.of(QUEUE, null, 1))),
        iae(
            "lease 201-char worker",
            "worker",
            t -> t.redrive.lease(LeaseRequest.of(QUEUE, LONG_NAME, 1))),
        iae(
            "lease 201-char queue",
            "queue",
            t -> t.redrive.lease(LeaseRequest.of(LONG_NAME, WORKER, 1))),
        error(
            "lease unknown queue",
            QueueNotFoundException.class,
            "nope",
            t -> t.redrive.lease(LeaseRequest.of("nope", WORKER, 1))),
        iae(
            "lease negative leaseTimeout",
            "leaseTimeout",
            t -> t.redrive.lease(new LeaseRequest(QUEUE, WORKER, 1, Duration.ofSeconds(-1)))),
        iae(
            "lease leaseTimeout over 12h",
            "leaseTimeout",
            t -> t.redrive.lease(new LeaseRequest(QUEUE, WORKER, 1, Duration.ofHours(13)))));
  }

  private static List<BadInput> settleCases() {
    return List.of(
        iae("complete null token", "leaseToken", t -> t.redrive.complete(null)),
        iae("complete empty token", "leaseToken", t -> t.redrive.complete("")),
        iae("complete malformed token", "leaseToken", t -> t.redrive.complete("abc.def")),
        iae(
            "complete token with uppercase nonce",
            "leaseToken",
            t -> t.redrive.complete(t.leased.id() + "." + repeat('A', 32))),
        error(
            "complete unknown message",
            LeaseNotFoundException.class,
            "does not exist",
            t -> t.redrive.complete(t.unknownToken())),
        error(
            "complete never-issued token",
            LeaseLostException.class,
            "lease lost",
            t -> t.redrive.complete(foreignToken(t.leased.id()))),
        error(
            "complete token of ready message",
            LeaseLostException.class,
            "lease lost",
            t -> t.redrive.complete(foreignToken(t.readyId))),
        iae("fail null request", "request", t -> t.redrive.fail(null)),
        iae(
            "fail null reason",
            "reason",
            t -> t.redrive.fail(FailRequest.of(t.leased.token(), null, "x"))),
        iae(
            "fail reason POISON",
            "reason",
            t -> t.redrive.fail(FailRequest.of(t.leased.token(), FailureReason.POISON, "x"))),
        iae(
            "fail reason EXPIRED",
            "reason",
            t -> t.redrive.fail(FailRequest.of(t.leased.token(), FailureReason.EXPIRED, "x"))),
        iae(
            "fail reason LEASE_EXPIRED",
            "reason",
            t ->
                t.redrive.fail(FailRequest.of(t.leased.token(), FailureReason.LEASE_EXPIRED, "x"))),
        iae(
            "fail negative retryAfter",
            "retryAfter",
            t ->
                t.redrive.fail(
                    FailRequest.of(t.leased.token(), FailureReason.HANDLER_EXCEPTION, "x")
                        .withRetryAfter(Duration.ofSeconds(-1)))),
        iae(
            "fail retryAfter over 365d",
            "retryAfter",
            t ->
                t.redrive.fail(
                    FailRequest.of(t.leased.token(), FailureReason.HANDLER_EXCEPTION, "x")
                        .withRetryAfter(Duration.ofDays(400)))),
        iae(
            "fail malformed token",
            "leaseToken",
            t -> t.redrive.fail(FailRequest.of("nope", FailureReason.HANDLER_EXCEPTION, "x"))),
        iae("abandon null request", "request", t -> t.redrive.abandon(null)),
        iae(
            "abandon null token",
            "leaseToken",
            t -> t.redrive.abandon(new AbandonRequest(null, null, false, null))),
        iae(
            "abandon negative delay",
            "delay",
            t ->
                t.redrive.abandon(
                    new AbandonRequest(t.leased.token(), Duration.ofSeconds(-5), false, null))),
        iae("release null list", "tokens", t -> t.redrive.release(null)),
        iae("release empty list", "tokens", t -> t.redrive.release(List.of())),
        iae(
            "release valid and malformed token",
            "leaseToken",
            t -> t.redrive.release(Arrays.asList(t.leased.token(), "garbage"))),
        iae(
            "release with null token",
            "leaseToken",
            t -> t.redrive.release(Arrays.asList(t.leased.token(), null))),
        iae("renew malformed token", "leaseToken", t -> t.redrive.renew("x", null)),
        iae(
            "renew zero leaseTimeout",
            "leaseTimeout",
            t -> t.redrive.renew(t.leased.token(), Duration.ZERO)),
        iae(
            "renew leaseTimeout over 12h",
            "leaseTimeout",
            t -> t.redrive.renew(t.leased.token(), Duration.ofHours(12).plusMillis(1))),
        error(
            "renew unknown message",
            LeaseNotFoundException.class,
            "does not exist",
            t -> t.redrive.renew(t.unknownToken(), null)));
  }

  private static List<BadInput> operatorCases() {
    return List.of(
        iae("getMessage null id", "id", t -> t.redrive.getMessage(null)),
        iae("getMessage blank id", "id", t -> t.redrive.getMessage("  ")),
        iae("getMessage 201-char id", "id", t -> t.redrive.getMessage(LONG_NAME)),
        error(
            "getMessage unknown id",
            MessageNotFoundException.class,
            "does not exist",
            t -> t.redrive.getMessage(t.unknownId())),
        iae("listMessages null query", "query", t -> t.redrive.listMessages(null)),
        iae(
            "listMessages limit 0",
            "limit",
            t -> t.redrive.listMessages(MessageQuery.all(QUEUE).withLimit(0))),
        iae(
            "listMessages limit 1001",
            "limit",
            t -> t.redrive.listMessages(MessageQuery.all(QUEUE).withLimit(1001))),
        iae(
            "listMessages invalid queue",
            "queue",
            t -> t.redrive.listMessages(MessageQuery.all("a b"))),
        iae(
            "listMessages blank cursor",
            "after",
            t -> t.redrive.listMessages(MessageQuery.all(QUEUE).withAfter(" "))),
        iae("retry blank id", "id", t -> t.redrive.retry(" ")),
        error(
            "retry unknown id",
            MessageNotFoundException.class,
            "does not exist",
            t -> t.redrive.retry(t.unknownId())),
        error(
            "retry ready message",
            io.redrive.error.ConflictException.class,
            "only dead messages",
            t -> t.redrive.retry(t.readyId)),
        iae("retry null ids", "ids", t -> t.redrive.retry(null, null)),
        iae("retry empty ids", "ids", t -> t.redrive.retry(List.of(), null)),
        iae("retry ids with blank", "ids", t -> t.redrive.retry(List.of(t.readyId, ""), null)),
        iae("redrive null request", "request", t -> t.redrive.redrive(null)),
        iae("redrive null from", "from", t -> t.redrive.redrive(RedriveRequest.all(null))),
        iae(
            "redrive invalid to",
            "to",
            t -> t.redrive.redrive(RedriveRequest.all(QUEUE).withTo("a b"))),
        iae(
            "redrive limit 0",
            "limit",
            t -> t.redrive.redrive(RedriveRequest.all(QUEUE).withLimit(0))),
        iae(
            "redrive deadSince after deadBefore",
            "deadSince",
            t ->
                t.redrive.redrive(
                    RedriveRequest.all(QUEUE)
                        .withDeadBetween(
                            Instant.parse("2030-02-01T00:00:00Z"),
                            Instant.parse("2030-01-01T00:00:00Z")))),
        error(
            "redrive unknown from queue",
            QueueNotFoundException.class,
            "nope",
            t -> t.redrive.redrive(RedriveRequest.all("nope"))),
        iae("drop null ids", "ids", t -> t.redrive.drop(null)),
        iae("drop empty ids", "ids", t -> t.redrive.drop(List.of())),
        iae("drop 201-char id", "ids", t -> t.redrive.drop(List.of(t.readyId, LONG_NAME))),
        iae("dropMatching null filter", "filter", t -> t.redrive.dropMatching(null)),
        iae(
            "dropMatching leased state",
            "states",
            t ->
                t.redrive.dropMatching(
                    new DropFilter(QUEUE, Set.of(MessageState.LEASED), null, null, 10))),
        iae(
            "dropMatching limit 0",
            "limit",
            t -> t.redrive.dropMatching(new DropFilter(QUEUE, null, null, null, 0))),
        iae(
            "dropMatching invalid queue",
            "queue",
            t -> t.redrive.dropMatching(new DropFilter("", null, null, null, 10))),
        iae(
            "importMessages invalid queue",
            "queue",
            t -> t.redrive.importMessages("a b", List.of())),
        iae("importMessages null list", "messages", t -> t.redrive.importMessages(QUEUE, null)),
        iae(
            "importMessages empty list",
            "messages",
            t -> t.redrive.importMessages(QUEUE, List.of())),
        iae(
            "importMessages null sourceId",
            "sourceId",
            t ->
                t.redrive.importMessages(
                    QUEUE, List.of(new ImportMessage(null, null, TYPE, "", null, null, false)))),
        iae(
            "importMessages second has null type",
            "messages[1].type",
            t ->
                t.redrive.importMessages(
                    QUEUE,
                    List.of(
                        new ImportMessage("a", null, TYPE, "", null, null, false),
                        new ImportMessage("b", null, null, "", null, null, false)))),
        error(
            "importMessages oversized payload",
            PayloadTooLargeException.class,
            "payload",
            t ->
                t.redrive.importMessages(
                    QUEUE,
                    List.of(
                        new ImportMessage(
                            "a", null, TYPE, repeat('x', 256 * 1024 + 1), null, null, false)))),
        error(
            "importMessages unknown queue",
            QueueNotFoundException.class,
            "nope",
            t ->
                t.redrive.importMessages(
                    "nope", List.of(new ImportMessage("a", null, TYPE, "", null, null, false)))),
        iae("stats invalid queue", "queue", t -> t.redrive.stats("a b")),
        error(
            "stats unknown queue",
            QueueNotFoundException.class,
            "nope",
            t -> t.redrive.stats("nope")));
  }

  private static final String NUL = "a\u0000b";

  @org.junit.jupiter.api.Test
  void fail_nulInMessageAndStackTrace_isRecordedWithTheNulReplaced() {
    redrive.fail(
        new FailRequest(
            leased.token(),
            FailureReason.HANDLER_EXCEPTION,
            "boom \u0000 here",
            true,
            null,
            0L,
            "java.lang.IllegalStateException: \u0000\n\tat x.Y.z(Y.java:1)"));

    io.redrive.failure.FailureRecord failure = message(leased.id()).lastError();
    assertThat(failure.message()).isEqualTo("boom \uFFFD here");
    assertThat(failure.stackTrace()).startsWith("java.lang.IllegalStateException: \uFFFD\n");
  }

  @org.junit.jupiter.api.Test
  void abandon_nulInNote_isRecordedWithTheNulReplaced() {
    redrive.abandon(new AbandonRequest(leased.token(), Duration.ZERO, false, "note \u0000"));

    assertThat(message(leased.id()).history())
        .anySatisfy(e -> assertThat(e.note()).isEqualTo("note \uFFFD"));
  }

  /** A NUL character (U+0000) is refused naming the field; PostgreSQL's text cannot hold it. */
  private static List<BadInput> nulCases() {
    return List.of(
        iae(
            "enqueue NUL in type",
            "type",
            t -> t.redrive.enqueue(NewMessage.builder(QUEUE, NUL).build())),
        iae(
            "enqueue NUL in payload",
            "payload",
            t -> t.redrive.enqueue(msg().payload(NUL).build())),
        iae(
            "enqueue NUL in header key",
            "headers",
            t -> t.redrive.enqueue(msg().headers(Map.of(NUL, "v")).build())),
        iae(
            "enqueue NUL in header value",
            "headers[k]",
            t -> t.redrive.enqueue(msg().headers(Map.of("k", NUL)).build())),
        iae("enqueue NUL in stream", "stream", t -> t.redrive.enqueue(msg().stream(NUL).build())),
        iae(
            "enqueue NUL in dedupeKey",
            "dedupeKey",
            t -> t.redrive.enqueue(msg().dedupeKey(NUL).build())),
        iae("lease NUL in worker", "worker", t -> t.redrive.lease(LeaseRequest.of(QUEUE, NUL, 1))),
        iae("getMessage NUL in id", "id", t -> t.redrive.getMessage(NUL)),
        iae("resolveId NUL in prefix", "id", t -> t.redrive.resolveId("abcd\u0000")),
        iae("retry NUL in ids", "ids", t -> t.redrive.retry(List.of(NUL), null)),
        iae("retry NUL in actor", "actor", t -> t.redrive.retry(List.of(t.readyId), NUL)),
        iae("retryNow NUL in actor", "actor", t -> t.redrive.retryNow(List.of(t.readyId), NUL)),
        iae(
            "listMessages NUL in type",
            "type",
            t -> t.redrive.listMessages(MessageQuery.all(QUEUE).withType(NUL))),
        iae(
            "importMessages NUL in sourceId",
            "sourceId",
            t ->
                t.redrive.importMessages(
                    QUEUE,
                    List.of(new ImportMessage(NUL, null, TYPE, PAYLOAD, Map.of(), null, false)))));
  }

  private static List<BadInput> textCases() {
    return List.of(
        iae("duration empty", "leaseTimeout", t -> DurationText.parse("leaseTimeout", "")),
        iae("duration without unit", "leaseTimeout", t -> DurationText.parse("leaseTimeout", "30")),
        iae("duration unknown unit", "expireAfter", t -> DurationText.parse("expireAfter", "5x")),
        iae(
            "duration spelled out",
            "retry.cooldown",
            t -> DurationText.parse("retry.cooldown", "five minutes")),
        iae("duration negative", "leaseTimeout", t -> DurationText.parse("leaseTimeout", "-5s")),
        iae("duration fraction", "leaseTimeout", t -> DurationText.parse("leaseTimeout", "1.5h")),
        iae("failure reason unknown", "reason", t -> FailureReason.parse("reason", "EXPLODED")),
        iae(
            "policy maxAttempts 0 on construction",
            "maxAttempts",
            t ->
                new QueuePolicy(
                    0,
                    QueuePolicy.DEFAULT_LEASE_TIMEOUT,
                    QueuePolicy.defaults().backoff(),
                    null,
                    DeadLetter.keep(),
                    io.redrive.queue.StreamPolicy.HOLD)));
  }
}
