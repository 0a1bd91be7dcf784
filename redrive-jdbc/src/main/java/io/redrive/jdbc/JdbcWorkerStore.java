package io.redrive.jdbc;

import io.redrive.lease.LiveWorker;
import io.redrive.lease.WaitingType;
import io.redrive.store.LiveWorkerParams;
import io.redrive.store.LiveWorkersParams;
import io.redrive.store.WaitingTypesParams;
import java.util.List;

/**
 * The live-worker half of {@link JdbcStore} (docs/engine.md, "Live workers and unserved types"):
 * each call in its transaction, the statements in {@link LiveWorkerRows}. Package-private, as
 * {@link JdbcWorkflowStore} is. Thread-safe.
 */
abstract class JdbcWorkerStore extends JdbcWorkflowStore {
  private final Transactions tx;

  JdbcWorkerStore(StoreParts parts) {
    super(parts);
    this.tx = parts.tx();
  }

  public void recordLiveWorker(LiveWorkerParams p) {
    tx.write("record live worker " + p.worker(), c -> LiveWorkerRows.record(c, p));
  }

  public List<LiveWorker> liveWorkers(LiveWorkersParams p) {
    return tx.read("live workers of " + p.queue(), c -> LiveWorkerRows.live(c, p));
  }

  public List<WaitingType> waitingTypes(WaitingTypesParams p) {
    return tx.read("waiting types of " + p.queue(), c -> LiveWorkerRows.waiting(c, p));
  }
}
