package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageIds;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.store.Store;
import io.redrive.testkit.ControllableClock;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of every compliance contract: a fresh database and store per test, an engine over it and a
 * {@link ControllableClock} that only moves when a test says so, plus small helpers.
 *
 * <p>A store module subclasses each contract and implements {@link #fixture()}; nothing else.
 */
public abstract class ComplianceTestBase {
  protected static final String QUEUE = "orders";
  protected static final String DLQ = "orders.dlq";
  protected static final String OTHER = "billing";
  protected static final String TYPE = "send-email";
  protected static final String PAYLOAD = "{\"to\":\"ada@example.com\"}";
  protected static final String WORKER = "worker-1";
  protected static final Duration LONG_LEASE = Duration.ofHours(1);
  protected static final Duration MILLI = Duration.ofMillis(1);

  protected TestDatabase db;
  protected Store store;
  protected ControllableClock clock;
  protected Redrive redrive;

  /** The store under test. */
  protected abstract StoreFixture fixture();

  @BeforeEach
  void openDatabase() {
    db = fixture().newDatabase();
    store = db.openStore();
    clock = ControllableClock.startingAtEpochOfTests();
    redrive = Redrive.builder(store).clock(clock).build();
  }

  @AfterEach
  void closeDatabase() {
    if (db != null) {
      db.close();
    }
  }

  // ---- time ----

  protected Instant now() {
    return clock.instant();
  }

  protected Instant advance(Duration d) {
    return clock.advance(d);
  }

  // ---- queues ----

  protected Queue createQueue(String name) {
    return redrive.createQueue(name);
  }

  protected Queue createQueue(String name, QueuePolicy policy) {
    return redrive.createQueue(name, policy);
  }

  protected static QueuePolicy defaults() {
    return QueuePolicy.defaults();
  }

  // ---- producing ----

  protected NewMessage.Builder newMessage(String queue) {
    return NewMessage.builder(queue, TYPE).payload(PAYLOAD);
  }

  protected String enqueue(String queue) {
    return enqueue(newMessage(queue).build());
  }

  protected String enqueue(NewMessage message) {
    return redrive.enqueue(message).id();
  }

  protected String enqueueInStream(String queue, String stream) {
    return enqueue(newMessage(queue).stream(stream).build());
  }

  protected List<String> enqueueMany(String queue, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(enqueue(newMessage(queue).payload("{\"n\":" + i + "}").build()));
    }
    return ids;
  }

  // ---- leasing ----

  protected LeaseResult lease(String queue, int max) {
    return redrive.lease(LeaseRequest.of(queue, WORKER, max));
  }

  protected LeaseResult lease(String queue, int max, Duration leaseTimeout) {
    return redrive.lease(new LeaseRequest(queue, WORKER, max, leaseTimeout));
  }

  /**
   * Makes a worker naming {@code type} live on {@code queue} (a lease of that type, to be called
   * while nothing of it is visible), so an unregistered-handler failure counts its attempt
   * (docs/engine.md, "Live workers and unserved types").
   */
  protected void workerNamingTypeLive(String queue, String type) {
    assertThat(
            redrive
                .lease(LeaseRequest.of(queue, "new-build", 1).withTypes(java.util.Set.of(type)))
                .leased())
        .isEmpty();
  }

  /** Leases with max 1 and asserts that exactly one message was delivered. */
  protected LeasedMessage leaseOne(String queue) {
    return single(lease(queue, 1));
  }

  protected LeasedMessage leaseOne(String queue, Duration leaseTimeout) {
    return single(lease(queue, 1, leaseTimeout));
  }

  private static LeasedMessage single(LeaseResult result) {
    assertThat(result.leased()).as("leased messages").hasSize(1);
    return result.leased().get(0);
  }

  protected static List<String> ids(LeaseResult result) {
    return result.leased().stream().map(LeasedMessage::id).toList();
  }

  /** Asserts that a lease of the queue delivers nothing (and so changes nothing). */
  protected void assertNothingLeasable(String queue) {
    LeaseResult result = lease(queue, LeaseRequest.MAX_BATCH);
    assertThat(ids(result)).as("messages leasable from %s at %s", queue, now()).isEmpty();
  }

  // ---- settling ----

  protected SettleResult complete(LeasedMessage m) {
    return redrive.complete(m.token());
  }

  protected SettleResult fail(LeasedMessage m, FailureReason reason) {
    return redrive.fail(FailRequest.of(m.token(), reason, "boom"));
  }

  protected SettleResult fail(LeasedMessage m) {
    return fail(m, FailureReason.HANDLER_EXCEPTION);
  }

  protected SettleResult failRetryAfter(LeasedMessage m, Duration retryAfter) {
    return redrive.fail(
        FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "boom")
            .withRetryAfter(retryAfter));
  }

  /** Fails with a non-retryable reason: the message dies at once. */
  protected SettleResult failPermanently(LeasedMessage m) {
    return fail(m, FailureReason.VALIDATION_FAILURE);
  }

  /** Enqueues one message, leases it and fails it permanently; returns its (source) id. */
  protected String enqueueAndKill(String queue) {
    return enqueueAndKill(newMessage(queue).build());
  }

  protected String enqueueAndKill(NewMessage message) {
    String id = enqueue(message);
    LeasedMessage leased = leaseOne(message.queue());
    assertThat(leased.id()).isEqualTo(id);
    failPermanently(leased);
    return id;
  }

  // ---- reading ----

  protected Message message(String id) {
    return redrive.getMessage(id);
  }

  protected List<Message> messagesIn(String queue) {
    return redrive
        .listMessages(MessageQuery.all(queue).withLimit(MessageQuery.MAX_LIMIT))
        .messages();
  }

  protected QueueStats stats(String queue) {
    return redrive.stats(queue);
  }

  protected List<Outcome> outcomes(String id) {
    return message(id).history().stream().map(HistoryEntry::outcome).toList();
  }

  protected static HistoryEntry last(Message m) {
    assertThat(m.history()).as("history of %s", m.id()).isNotEmpty();
    return m.history().get(m.history().size() - 1);
  }

  // ---- ids and tokens ----

  /** A well-formed id that no message has. */
  protected String unknownId() {
    return MessageIds.next(clock);
  }

  /** A well-formed token naming a message that does not exist. */
  protected String unknownToken() {
    return unknownId() + "." + "0".repeat(32);
  }

  /** A well-formed token for {@code messageId} that was never issued. */
  protected static String foreignToken(String messageId) {
    return messageId + "." + "0123456789abcdef".repeat(2);
  }

  protected static String repeat(char c, int length) {
    return String.valueOf(c).repeat(length);
  }

  protected static Map<String, String> headers() {
    return Map.of("trace-id", "t-123", "tenant", "acme");
  }
}
