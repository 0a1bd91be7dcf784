package io.redrive.store;

import java.time.Instant;
import java.util.List;

/**
 * The fleet half of {@link Store}: who is alive. Live workers (docs/engine.md, "Live workers and
 * unserved types": which workers leased which types lately, and the types nobody takes) and engine
 * liveness (docs/engine.md, "Crash evidence": which engine nodes were continuously alive, read as
 * evidence at lease expiries). Every method is written on a timer or throttled in memory, never
 * once per lease. Implementations are thread-safe.
 */
public interface FleetStore {
  /**
   * Records a lease call of a worker on a queue and the types it named (empty: every type) as of
   * {@code now}, one row per type, so the worker counts as live for them; in the same transaction
   * forgets this queue's records more than a day old. The engine calls this at most every {@link
   * io.redrive.lease.LiveWorker#RECORD_INTERVAL} per worker, queue and types, never once per lease.
   * Does not check that the queue exists.
   */
  void recordLiveWorker(LiveWorkerParams params);

  /**
   * The workers whose latest recorded lease call on a queue is at or after {@code since}, one entry
   * per worker with every type it named (empty: it leased every type), by worker. Reads only the
   * live-worker records (indexed by queue).
   */
  List<io.redrive.lease.LiveWorker> liveWorkers(LiveWorkersParams params);

  /**
   * The types of a queue's ready messages that became visible at or before {@code readyBefore},
   * each with its earliest ready time, by type: read from at most {@code scanLimit} of the queue's
   * oldest ready messages in serve order (the serve index), so its cost is bounded on any backlog.
   */
  List<io.redrive.lease.WaitingType> waitingTypes(WaitingTypesParams params);

  /**
   * Records that an engine node is alive (its liveness row: node id, alive since, last seen), in a
   * transaction of its own, and answers since when it has been continuously alive. A beat that
   * finds its previous one older than {@link NodeBeatParams#staleAfter} starts a new span. Lease
   * expiries on queues with a crash-loop breaker read these rows as evidence (docs/engine.md,
   * "Crash evidence"). Called on a timer, never per lease.
   */
  Instant beatNode(NodeBeatParams params);
}
