package io.redrive;

import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LiveWorker;
import io.redrive.store.LiveWorkerParams;
import io.redrive.store.Store;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records lease calls as live workers (docs/engine.md, "Live workers and unserved types"),
 * throttled in memory: at most one store write per worker, queue and set of types every {@link
 * LiveWorker#RECORD_INTERVAL} in this process, so a lease in steady state pays no statement for it
 * (the hot path's statement count is a promise, docs/benchmarks.md). A failed write is logged and
 * tried again at the next lease; it never fails the lease. Thread-safe: lease threads enter it.
 */
final class LiveWorkers {
  /** Beyond this many remembered keys, keys idle for ten intervals are dropped. */
  private static final int MAX_KEYS = 10_000;

  private final Store store;
  private final ConcurrentHashMap<Key, Long> recorded = new ConcurrentHashMap<>();

  private record Key(String queue, String worker, Set<String> types) {}

  LiveWorkers(Store store) {
    this.store = store;
  }

  /** Notes a lease call that the store answered at {@code now}. */
  void leased(LeaseRequest request, Instant now) {
    Key key = new Key(request.queue(), request.worker(), request.types());
    long at = now.toEpochMilli();
    Long last = recorded.get(key);
    if (last != null && at >= last && at - last < LiveWorker.RECORD_INTERVAL.toMillis()) {
      return;
    }
    // One thread claims the write; the others go on as if it were done.
    boolean claimed =
        last == null ? recorded.putIfAbsent(key, at) == null : recorded.replace(key, last, at);
    if (!claimed) {
      return;
    }
    try {
      store.recordLiveWorker(new LiveWorkerParams(key.queue(), key.worker(), key.types(), now));
    } catch (RuntimeException e) {
      recorded.remove(key, at);
      EngineLog.LOG.debug(
          "recording live worker {} on {} failed: {}", key.worker(), key.queue(), e.toString());
    }
    if (recorded.size() > MAX_KEYS) {
      long idle = at - 10 * LiveWorker.RECORD_INTERVAL.toMillis();
      recorded.values().removeIf(t -> t < idle);
    }
  }
}
