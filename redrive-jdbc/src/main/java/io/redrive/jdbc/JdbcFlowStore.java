package io.redrive.jdbc;

import io.redrive.store.StatsParams;
import java.util.List;

/**
 * The flow-control reads and the circuits' operator half of {@link JdbcStore} (docs/engine.md,
 * "Flow limits" and "Circuit breakers"): each call in its transaction, the statements in {@link
 * FlowGate} and {@link CircuitViews}. Package-private, as {@link JdbcWorkflowStore} is.
 * Thread-safe.
 */
abstract class JdbcFlowStore extends JdbcWorkerStore {
  private final Transactions tx;
  private final StoreParts parts;

  JdbcFlowStore(StoreParts parts) {
    super(parts);
    this.tx = parts.tx();
    this.parts = parts;
  }

  public List<io.redrive.queue.CircuitStatus> circuits(StatsParams p) {
    return tx.read("circuits of " + p.queue(), c -> CircuitViews.list(c, parts.queues(), p));
  }

  public io.redrive.queue.CircuitStatus setCircuit(io.redrive.store.CircuitParams p) {
    return tx.write(
        "circuit " + p.dependency() + " of " + p.queue(),
        c -> CircuitViews.set(c, parts.queues(), p));
  }

  public io.redrive.queue.FlowStatus flowStatus(StatsParams p) {
    return tx.read(
        "flow status of " + p.queue(),
        c -> {
          io.redrive.queue.Queue q = parts.queues().require(c, p.queue(), false);
          return FlowGate.open(c, p.queue(), q.policy().limits(), null, p.now()).status();
        });
  }
}
