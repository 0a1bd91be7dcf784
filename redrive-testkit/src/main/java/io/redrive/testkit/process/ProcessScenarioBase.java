package io.redrive.testkit.process;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.Redrive;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.NewMessage;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.TestDatabase;
import io.redrive.worker.HandlerContext;
import io.redrive.worker.Worker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

/**
 * Base of the multi-process scenarios: a fresh database per test, an engine on it for the test's
 * own reads and writes, child worker JVMs ({@link #startChildren}) and in-process workers on their
 * own stores ({@link #startWorker}), all of them killed or stopped after each test so that nothing
 * outlives it. Child output and the results file go to {@code
 * target/process-tests/<store>/<class>/<method>/}.
 *
 * <p>Real time, short durations: every wait is an explicit condition with a bound.
 */
public abstract class ProcessScenarioBase {
  /**
   * Longest wait for a child JVM to start leasing (JVM start is about a second, more under load).
   */
  protected static final Duration STARTUP = Duration.ofSeconds(30);

  /** Bound of every other wait. */
  protected static final Duration WAIT = Duration.ofSeconds(30);

  protected TestDatabase db;
  protected Redrive redrive;
  protected Path logDir;
  protected Path results;

  private final List<ChildWorker> children = new CopyOnWriteArrayList<>();
  private final List<Worker> workers = new CopyOnWriteArrayList<>();

  /** The store under test; its databases must have an {@link TestDatabase#address() address}. */
  protected abstract StoreFixture fixture();

  @BeforeEach
  void openDatabase(TestInfo info) {
    logDir =
        Path.of(
            System.getProperty("basedir", "."),
            "target",
            "process-tests",
            fixture().name(),
            getClass().getSimpleName(),
            info.getTestMethod().map(Method::getName).orElse("test"));
    deleteTree(logDir);
    try {
      Files.createDirectories(logDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    results = logDir.resolve("results.tsv");
    db = fixture().newDatabase();
    redrive = Redrive.builder(db.openStore()).build();
  }

  @AfterEach
  void killEverything() {
    try {
      children.forEach(ChildWorker::close);
      workers.forEach(w -> w.stop(Duration.ZERO));
    } finally {
      if (db != null) {
        db.close();
      }
    }
  }

  // ---- child JVMs ----

  /**
   * Starts one child JVM per spec (all at once), each writing completions to {@link #results}, and
   * waits until every one is leasing.
   */
  protected List<ChildWorker> startChildren(WorkerSpec... specs) {
    List<ChildWorker> started = new ArrayList<>();
    for (WorkerSpec spec : specs) {
      ChildWorker child =
          ChildWorker.start(
              spec.results() == null ? spec.withResults(results) : spec, db.address(), logDir);
      children.add(child);
      started.add(child);
    }
    started.forEach(c -> c.awaitReady(STARTUP));
    return started;
  }

  protected ChildWorker startChild(WorkerSpec spec) {
    return startChildren(spec).get(0);
  }

  /**
   * Keeps {@code count} children of {@code template} alive — ids {@code <template id>-1}, {@code
   * -2}, … — starting a new one each time one dies, until {@code done} holds (bounded by {@link
   * #WAIT} per death). Returns every child it started, in start order.
   */
  protected List<ChildWorker> superviseUntil(WorkerSpec template, int count, BooleanSupplier done) {
    WorkerSpec[] first = new WorkerSpec[count];
    for (int i = 0; i < count; i++) {
      first[i] = template.withId(template.id() + "-" + (i + 1));
    }
    return superviseUntil(template, startChildren(first), done);
  }

  /**
   * Like {@link #superviseUntil(WorkerSpec, int, BooleanSupplier)}, taking over children already
   * started (numbered {@code 1..n}); replacements are numbered on from there.
   */
  protected List<ChildWorker> superviseUntil(
      WorkerSpec template, List<ChildWorker> running, BooleanSupplier done) {
    List<ChildWorker> all = new ArrayList<>(running);
    List<ChildWorker> alive = new ArrayList<>(running);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!done.getAsBoolean()) {
      for (ChildWorker child : List.copyOf(alive)) {
        if (!child.isAlive()) {
          alive.remove(child);
          ChildWorker next = startChild(template.withId(template.id() + "-" + (all.size() + 1)));
          alive.add(next);
          all.add(next);
          deadline = System.nanoTime() + WAIT.toNanos();
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "condition not reached within " + WAIT + " of the last restart; children: " + all);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
    return all;
  }

  /** The completions recorded so far by every worker of this test, in file order. */
  protected List<ResultLine> results() {
    return ResultLine.readAll(results);
  }

  // ---- in-process workers ----

  /** A new engine on a store of its own (its own connection pool): one more node. */
  protected Redrive newNode() {
    return Redrive.builder(db.openStore()).build();
  }

  /** A worker builder on a new node with test timings: 20–100 ms polls, 1 s shutdown grace. */
  protected Worker.Builder worker(String id, String queue) {
    return Worker.builder(newNode(), queue)
        .id(id)
        .pollInterval(Duration.ofMillis(20), Duration.ofMillis(100))
        .shutdownGrace(Duration.ofSeconds(1))
        .queueDepthInterval(Duration.ZERO)
        .meterRegistry(new SimpleMeterRegistry());
  }

  /** Builds and starts {@code builder}'s worker; it is stopped after the test. */
  protected Worker startWorker(Worker.Builder builder) {
    Worker worker = builder.build();
    workers.add(worker);
    return worker.start();
  }

  /**
   * What an in-process handler records before completing, like {@link Behaviour#COMPLETE} does in a
   * child: appended to {@link #results}.
   */
  protected ResultLine record(HandlerContext ctx) {
    ResultLine line =
        new ResultLine(
            ctx.id(),
            ctx.type(),
            ctx.attempt(),
            ctx.workerId(),
            ResultLine.steps(history(ctx.id())));
    line.appendTo(results);
    return line;
  }

  // ---- messages ----

  protected String enqueue(String queue, String type) {
    return redrive.enqueue(NewMessage.builder(queue, type).build()).id();
  }

  protected List<String> enqueueMany(String queue, String type, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(enqueue(queue, type));
    }
    return ids;
  }

  protected Message message(String id) {
    return redrive.getMessage(id);
  }

  protected List<HistoryEntry> history(String id) {
    return message(id).history();
  }

  protected List<ResultLine.Step> steps(String id) {
    return ResultLine.steps(history(id));
  }

  /** Awaitility with this suite's bound and a short poll. */
  protected static ConditionFactory eventually() {
    return await().atMost(WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20));
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
