package io.redrive.workflow;

import io.redrive.Redrive;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.store.Store;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;

/**
 * What runtime tests share: a fresh database of the store under test, a {@link Redrive} on it, and
 * runtimes that are stopped after each test.
 */
abstract class RuntimeHarness {
  static final Duration WAIT = Duration.ofSeconds(30);

  /** Backoff short enough for tests: 10 ms doubling to 50 ms. */
  static final UnregisteredHandlerBackoff FAST =
      new UnregisteredHandlerBackoff(Duration.ofMillis(10), 6, Duration.ofMillis(50));

  private final List<AutoCloseable> open = new ArrayList<>();
  StoreKind.TestDb db;
  Store store;
  Redrive redrive;

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    open.clear();
    if (db != null) {
      db.drop().run();
    }
  }

  Redrive redrive(StoreKind kind) {
    return redrive(kind, Clock.systemUTC());
  }

  Redrive redrive(StoreKind kind, Clock clock) {
    db = kind.newDatabase();
    store = db.open();
    redrive = Redrive.builder(store).clock(clock).build();
    open.add(redrive);
    return redrive;
  }

  WorkflowRuntime runtime(WorkflowRegistry registry) {
    return runtime(registry, b -> b);
  }

  WorkflowRuntime runtime(
      WorkflowRegistry registry, UnaryOperator<WorkflowRuntime.Builder> settings) {
    WorkflowRuntime runtime =
        settings
            .apply(
                WorkflowRuntime.builder(redrive, registry)
                    .nodeId("node-" + open.size())
                    .pollInterval(Duration.ofMillis(50)))
            .build()
            .start();
    open.add(runtime);
    return runtime;
  }

  /**
   * A plain worker on the default activity queue that leases every type (leaseOnlyHandledTypes
   * false) and handles none that tests call, as a queue's only worker that should handle
   * everything: it bounces an activity no runtime registers as UNREGISTERED_HANDLER (FAST backoff)
   * until the message is poisoned. A runtime alone never does: it leases only the activities it
   * registers. A worker naming the {@code missing} activities is made live first (a newer build
   * elsewhere), so those bounces count their attempts: with none, they would be refunded and never
   * poison (docs/engine.md, "Live workers and unserved types"). Call it before the activities are
   * called.
   */
  Worker catchAllActivityWorker(String... missing) {
    redrive.lease(
        io.redrive.lease.LeaseRequest.of(WorkflowDefaults.ACTIVITY_QUEUE, "names-missing", 1)
            .withTypes(java.util.Set.of(missing)));
    Worker worker =
        Worker.builder(redrive, WorkflowDefaults.ACTIVITY_QUEUE)
            .id("catch-all")
            .leaseOnlyHandledTypes(false)
            .unregisteredBackoff(FAST)
            .pollInterval(Duration.ofMillis(5), Duration.ofMillis(50))
            .handler("handles-nothing-a-test-calls", ctx -> HandlerResult.complete())
            .build()
            .start();
    open.add(worker);
    return worker;
  }

  /** The workflow half of the store under test, for what only the store shows. */
  WorkflowStore workflowStore() {
    return (WorkflowStore) store;
  }

  WorkflowClient client() {
    return WorkflowClient.on(redrive);
  }

  /** Runs {@code hook} on a plain JDBC connection to the test database. */
  void withConnection(Consumer<Connection> hook) {
    try (Connection c = db.connect()) {
      hook.accept(c);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
