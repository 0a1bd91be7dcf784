package io.redrive.workflow.runtime;

import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.KnownHistory;
import io.redrive.store.workflow.TurnLease;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The histories of the instances this node committed turns of recently (docs/workflows.md, "History
 * cache"), least recently used out beyond its size: a lease of one of them reads only the inbox.
 * Correctness never rests on it: the store takes a copy only when it matches the instance's
 * counters, and a turn that replayed a copy and could not use it (a nondeterminism bounce, an
 * unreadable history, a failure of ours) is decided again from the stored rows. Thread-safe: the
 * lease thread asks, the turn threads remember and forget; one lock, held for map operations only.
 */
final class HistoryCache implements KnownHistory {
  /** An instance is known by its id and its creation: a deleted and restarted id is another. */
  private record Entry(Instant createdAt, int executionId, List<HistoryRow> rows) {}

  private final int size;
  private final WorkflowMetrics metrics;
  private final Map<String, Entry> entries;

  HistoryCache(int size, WorkflowMetrics metrics) {
    this.size = size;
    this.metrics = metrics;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > HistoryCache.this.size;
          }
        };
  }

  @Override
  public List<HistoryRow> of(InstanceRow instance) {
    Entry e;
    synchronized (entries) {
      e = entries.get(instance.id());
    }
    boolean hit =
        e != null
            && e.createdAt.equals(instance.createdAt())
            && e.executionId == instance.executionId()
            && e.rows.size() == instance.historyEvents();
    metrics.historyCache(hit ? "hit" : "miss");
    return hit ? e.rows : null;
  }

  /** True when {@code lease}'s history is this cache's copy (the store took it). */
  boolean served(TurnLease lease) {
    Entry e;
    synchronized (entries) {
      e = entries.get(lease.instance().id());
    }
    return e != null && e.rows == lease.history();
  }

  /**
   * After {@code commit} of {@code lease}'s turn went in: the history it left, for an instance that
   * runs on in the same execution; anything else (an end, a continue-as-new) is forgotten.
   */
  void committed(TurnLease lease, CommitTurnParams commit) {
    InstanceRow i = lease.instance();
    if (size == 0) {
      return;
    }
    if (!keeps(lease, commit)) {
      forget(i.id());
      return;
    }
    List<HistoryRow> rows = new ArrayList<>(lease.history().size() + commit.history().size());
    rows.addAll(lease.history());
    rows.addAll(commit.history());
    Entry e = new Entry(i.createdAt(), i.executionId(), List.copyOf(rows));
    synchronized (entries) {
      entries.put(i.id(), e);
    }
  }

  /**
   * True when {@link #committed} keeps the history {@code commit} of {@code lease}'s turn leaves:
   * the cache is on and the instance runs on in the same execution.
   */
  boolean keeps(TurnLease lease, CommitTurnParams commit) {
    return size > 0
        && commit.instance().status() == Status.RUNNING
        && commit.instance().executionId() == lease.instance().executionId();
  }

  /** Drops what is held for {@code instanceId}. */
  void forget(String instanceId) {
    synchronized (entries) {
      entries.remove(instanceId);
    }
  }

  /**
   * Test hook: replaces the held rows of {@code instanceId} (to show a damaged copy is not used).
   */
  void replace(String instanceId, List<HistoryRow> rows) {
    synchronized (entries) {
      Entry e = entries.get(instanceId);
      if (e != null) {
        entries.put(instanceId, new Entry(e.createdAt, e.executionId, List.copyOf(rows)));
      }
    }
  }
}
