package io.redrive.testkit.worker;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.FindMessageParams;
import io.redrive.store.Store;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.TestDatabase;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of every worker scenario: a fresh database and store per test, an engine over it with the
 * real system clock (workers schedule, renew and time out in real time), a fresh {@link
 * SimpleMeterRegistry} for the engine's and the workers' meters, and helpers to build workers with
 * short durations. Every worker started through {@link #start} is stopped after the test, and
 * handlers that hang on purpose ({@link #blockIgnoringInterrupts}, {@link #spinIgnoringInterrupts})
 * are let go then, so no thread of one test outlives it.
 *
 * <p>A store module subclasses each scenario class and implements {@link #fixture()}; nothing else.
 */
public abstract class WorkerScenarioBase {
  protected static final String QUEUE = "jobs";
  protected static final String TYPE = "work";
  protected static final Duration LEASE = Duration.ofSeconds(1);
  protected static final Duration COOLDOWN = Duration.ofMillis(20);
  protected static final Duration AT_MOST = Duration.ofSeconds(20);

  protected TestDatabase db;
  protected Store store;
  protected Redrive redrive;
  protected SimpleMeterRegistry meters;

  private final List<Worker> workers = new CopyOnWriteArrayList<>();
  private final AtomicInteger workerIds = new AtomicInteger();
  private final CountDownLatch testOver = new CountDownLatch(1);
  private volatile boolean over;

  /** The store under test. */
  protected abstract StoreFixture fixture();

  @BeforeEach
  void openDatabase() {
    db = fixture().newDatabase();
    store = db.openStore();
    meters = new SimpleMeterRegistry();
    redrive = Redrive.builder(store).meterRegistry(meters).build();
  }

  @AfterEach
  void stopWorkersAndCloseDatabase() {
    over = true;
    testOver.countDown();
    try {
      for (Worker worker : workers) {
        worker.stop(Duration.ofSeconds(1));
      }
    } finally {
      if (db != null) {
        db.close();
      }
    }
  }

  // ---- queues and messages ----

  /** 3 runs, 20 ms cooldown, 1 s lease: fast enough that a test never waits long for a retry. */
  protected static QueuePolicy fastPolicy() {
    return QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(LEASE);
  }

  protected void createQueue(QueuePolicy policy) {
    redrive.createQueue(QUEUE, policy);
  }

  protected String enqueue(String type) {
    return enqueue(NewMessage.builder(QUEUE, type).payload("{}").build());
  }

  protected String enqueue(String type, String payload) {
    return enqueue(NewMessage.builder(QUEUE, type).payload(payload).build());
  }

  protected String enqueueInStream(String type, String stream, String payload) {
    return enqueue(NewMessage.builder(QUEUE, type).stream(stream).payload(payload).build());
  }

  protected String enqueue(NewMessage message) {
    return redrive.enqueue(message).id();
  }

  protected List<String> enqueueMany(String type, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(enqueue(type, "{\"n\":" + i + "}"));
    }
    return ids;
  }

  // ---- workers ----

  /**
   * A worker builder for {@link #QUEUE} with test-friendly settings: a unique id, fast polling (5
   * to 50 ms), the test's meter registry and a 1 s shutdown grace. Add handlers, then {@link
   * #start}.
   */
  protected Worker.Builder worker() {
    return worker(QUEUE);
  }

  protected Worker.Builder worker(String queue) {
    return worker(redrive, queue);
  }

  protected Worker.Builder worker(Redrive engine, String queue) {
    return Worker.builder(engine, queue)
        .id("w" + workerIds.incrementAndGet())
        .pollInterval(Duration.ofMillis(5), Duration.ofMillis(50))
        .shutdownGrace(Duration.ofSeconds(1))
        .meterRegistry(meters);
  }

  /** Builds and starts a worker that is stopped after the test. */
  protected Worker start(Worker.Builder builder) {
    Worker worker = builder.build();
    workers.add(worker);
    return worker.start();
  }

  // ---- handlers that hang on purpose ----

  /**
   * Blocks the calling handler thread until the test ends, ignoring interrupts (a handler stuck in
   * a call that does not honour them). Returns normally at teardown.
   */
  protected void blockIgnoringInterrupts() {
    while (!over) {
      try {
        testOver.await();
      } catch (InterruptedException ignored) {
        // deliberately swallowed: this handler does not honour interrupts
      }
    }
  }

  /**
   * Busy-spins until the test ends, checking neither interrupts nor cancellation (an endless loop
   * in handler code). Spins on a test-owned flag only so the thread does not outlive the test.
   */
  protected void spinIgnoringInterrupts() {
    while (!over) {
      Thread.onSpinWait();
    }
  }

  // ---- reading ----

  protected Message message(String id) {
    return redrive.getMessage(id);
  }

  protected Optional<Message> find(String id) {
    return store.findMessage(new FindMessageParams(id, Instant.now()));
  }

  /** True when the message has left the store (completed messages are deleted). */
  protected boolean isCompleted(String id) {
    return find(id).isEmpty();
  }

  protected boolean isInState(String id, MessageState state) {
    return find(id).map(m -> m.state() == state).orElse(false);
  }

  protected List<Outcome> outcomes(String id) {
    return message(id).history().stream().map(HistoryEntry::outcome).toList();
  }

  protected static List<HistoryEntry> entries(Message m, Outcome outcome) {
    return m.history().stream().filter(e -> e.outcome() == outcome).toList();
  }

  protected static HistoryEntry last(Message m) {
    return m.history().get(m.history().size() - 1);
  }

  /** The reason of each FAILED attempt, oldest first. */
  protected static List<FailureReason> failedReasons(Message m) {
    return entries(m, Outcome.FAILED).stream()
        .map(HistoryEntry::failure)
        .map(FailureRecord::reason)
        .toList();
  }

  // ---- waiting ----

  /** Awaitility with a generous limit (slow CI) and a short poll (fast tests). */
  protected static ConditionFactory eventually() {
    return await().atMost(AT_MOST).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10));
  }

  protected void awaitCompleted(String id) {
    eventually().alias("message " + id + " completed").until(() -> isCompleted(id));
  }

  protected void awaitCompleted(List<String> ids) {
    eventually()
        .alias(ids.size() + " messages completed")
        .until(() -> ids.stream().allMatch(this::isCompleted));
  }

  protected Message awaitState(String id, MessageState state) {
    eventually().alias("message " + id + " " + state).until(() -> isInState(id, state));
    return message(id);
  }

  protected Message awaitDead(String id) {
    return awaitState(id, MessageState.DEAD);
  }
}
