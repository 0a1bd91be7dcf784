package io.redrive.test;

import io.redrive.Redrive;
import io.redrive.error.ConflictException;
import io.redrive.message.Message;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerRegistration;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A real engine for a test: Redrive on its own store (a temporary SQLite file or a PostgreSQL
 * schema) with a {@link TestClock}, the handlers the test registered, assertions on what was
 * enqueued, {@link #drain} and {@link #inline inline mode}. {@link RedriveExtension} makes one per
 * test class and {@link #reset() empties} it before each test; {@link #open} makes one by hand.
 * Thread-safe.
 */
public final class TestRedrive implements AutoCloseable {
  /** Where the clock of every test kit engine starts, and goes back to on {@link #reset}. */
  public static final Instant CLOCK_START = Instant.parse("2030-01-01T00:00:00Z");

  private final TestStore store;
  private final TestClock clock;
  private final Redrive engine;
  private final Map<String, Map<String, HandlerRegistration>> handlers = new ConcurrentHashMap<>();
  private final Drainer drainer;
  private final InlineRuns inline;
  private final EnqueuedMessages enqueued;
  private final List<Runnable> resets = new ArrayList<>();
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();

  TestRedrive(TestStore store, Consumer<Redrive.Builder> customizer) {
    this.store = store;
    this.clock = new TestClock(CLOCK_START);
    Redrive.Builder builder = Redrive.builder(store.store()).clock(clock);
    customizer.accept(builder);
    this.engine = builder.build();
    this.drainer = new Drainer(engine, clock, this::registration);
    this.inline = new InlineRuns(engine, drainer);
    this.enqueued = new EnqueuedMessages(engine);
  }

  private TestRedrive(Redrive engine) {
    this.store = null;
    this.clock = engine.clock() instanceof TestClock c ? c : null;
    this.engine = engine;
    this.drainer = new Drainer(engine, clock, this::registration);
    this.inline = new InlineRuns(engine, drainer);
    this.enqueued = new EnqueuedMessages(engine);
  }

  /**
   * The kit's assertions, drain and inline mode on an engine built elsewhere — the Spring starter's
   * bean, say (docs/testing.md, "With Spring Boot"). Its clock moves from the test only if it is a
   * {@link TestClock}. {@link #reset} forgets handlers and inline mode but deletes no queue (they
   * are the application's), and {@link #close} leaves the engine open.
   */
  public static TestRedrive wrap(Redrive engine) {
    return new TestRedrive(java.util.Objects.requireNonNull(engine, "engine"));
  }

  /** An engine on a new temporary SQLite file; close it when done. */
  public static TestRedrive open() {
    return new TestRedrive(TestStore.sqlite(), b -> {});
  }

  /** The engine: hand it to the code under test. */
  public Redrive engine() {
    return engine;
  }

  /**
   * The store the engine runs on, for test tools that work beside the engine on the same store (the
   * workflow test environment); application code goes through {@link #engine()}.
   */
  public io.redrive.store.Store store() {
    if (store == null) {
      throw new IllegalStateException("a wrapped engine's store belongs to whoever built it");
    }
    return store.store();
  }

  /**
   * The engine's clock; it moves only when the test moves it.
   *
   * @throws IllegalStateException for a {@link #wrap wrapped} engine whose clock is not a TestClock
   */
  public TestClock clock() {
    if (clock == null) {
      throw new IllegalStateException(
          "the engine's clock is "
              + engine.clock().getClass().getSimpleName()
              + ", not a TestClock: build the engine with one (with the Spring starter, a Clock"
              + " bean named redriveClock)");
    }
    return clock;
  }

  /** Moves the clock forward by {@code d} and returns the new instant. */
  public Instant advance(Duration d) {
    return clock().advance(d);
  }

  /**
   * The SQLite file the engine runs on, for an application's own connections; empty on PostgreSQL.
   */
  public Optional<Path> sqliteFile() {
    return Optional.ofNullable(store == null ? null : store.sqliteFile());
  }

  /** The PostgreSQL schema holding this engine's tables; empty on SQLite. */
  public Optional<String> schema() {
    return Optional.ofNullable(store == null ? null : store.schema());
  }

  /** Queue {@code name}, created with the default policy when it does not exist yet. */
  public Queue queue(String name) {
    return queue(name, QueuePolicy.defaults());
  }

  /** Queue {@code name}, created with {@code policy} when it does not exist yet. */
  public Queue queue(String name, QueuePolicy policy) {
    try {
      return engine.getQueue(name);
    } catch (io.redrive.error.QueueNotFoundException e) {
      return engine.createQueue(name, policy);
    }
  }

  /**
   * Registers {@code handler} for messages of {@code type} on {@code queue} (created if missing),
   * for {@link #drain} and inline mode. A later registration of the same type replaces it.
   */
  public TestRedrive handle(String queue, String type, Handler handler) {
    return handle(queue, HandlerRegistration.of(type, handler));
  }

  /** Registers a handler with its classifier (its timeout is not enforced by drain). */
  public TestRedrive handle(String queue, HandlerRegistration registration) {
    queue(queue);
    handlers
        .computeIfAbsent(queue, q -> new ConcurrentHashMap<>())
        .put(registration.type(), registration);
    inline.watch(queue);
    return this;
  }

  private HandlerRegistration registration(String queue, String type) {
    Map<String, HandlerRegistration> byType = handlers.get(queue);
    return byType == null ? null : byType.get(type);
  }

  /**
   * Runs the handlers of {@code queue} on this thread until no message is due: each leased message
   * runs once, failures are retried when their backoff is due, which takes {@link #advance moving
   * the clock} (or {@link Drain#followRetries()}).
   *
   * @throws IllegalStateException when a due message has a type with no handler registered here
   *     (the message is released first, its attempt refunded)
   */
  public DrainReport drain(String queue) {
    return drain(queue, Drain.defaults());
  }

  /** {@link #drain(String)} with options: at most N messages, a pool, following retries. */
  public DrainReport drain(String queue, Drain options) {
    return drainer.drain(queue, options);
  }

  /**
   * Inline mode: while on, an enqueue that commits on its own runs the handlers of its queue before
   * {@code enqueue} returns, on the enqueuing thread, after the message is committed. An enqueue
   * that joins the application's transaction is not run inline (call {@link #drain} after the
   * commit). What ran is in {@link #inlineReport()}. Off by default and after {@link #reset}.
   */
  public TestRedrive inline(boolean on) {
    inline.enable(on);
    return this;
  }

  /** What inline mode ran since it was turned on or last {@link #reset}. */
  public DrainReport inlineReport() {
    return inline.report();
  }

  /** The waiting messages of {@code queue} (ready, scheduled or leased), oldest first. */
  public List<Message> enqueued(String queue) {
    return enqueued.waiting(queue);
  }

  /**
   * Asserts that exactly one waiting message of {@code queue} matches and returns it.
   *
   * @throws AssertionError naming what the queue holds when none or several match
   */
  public Message assertEnqueued(String queue, MessageMatcher matcher) {
    return enqueued.assertCount(queue, matcher, 1).get(0);
  }

  /** Asserts that exactly {@code count} waiting messages of {@code queue} match; returns them. */
  public List<Message> assertEnqueued(String queue, MessageMatcher matcher, int count) {
    return enqueued.assertCount(queue, matcher, count);
  }

  /** Asserts that no waiting message of {@code queue} matches. */
  public void assertNotEnqueued(String queue, MessageMatcher matcher) {
    enqueued.assertCount(queue, matcher, 0);
  }

  /** Runs {@code action} on every {@link #reset} (a workflow environment clears its instances). */
  public synchronized void onReset(Runnable action) {
    resets.add(action);
  }

  /**
   * Empties the engine for the next test: inline mode off, handlers forgotten, every queue deleted
   * with its messages, the clock back at {@link #CLOCK_START}.
   */
  public void reset() {
    List<Runnable> actions;
    synchronized (this) {
      actions = List.copyOf(resets);
    }
    actions.forEach(Runnable::run);
    inline.enable(false);
    inline.clear();
    handlers.clear();
    if (store != null) {
      deleteAllQueues();
      clock.set(CLOCK_START);
    }
  }

  private void deleteAllQueues() {
    // A queue named as another's dead-letter queue is refused until that one is gone.
    boolean progress = true;
    while (progress) {
      progress = false;
      for (Queue q : engine.listQueues()) {
        try {
          engine.deleteQueue(q.name());
          progress = true;
        } catch (ConflictException e) {
          // deleted on a later pass
        }
      }
    }
  }

  /** Closes the engine and removes its file or schema; later calls do nothing. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    inline.enable(false);
    if (store != null) {
      engine.close();
      store.cleanup().run();
    }
  }
}
