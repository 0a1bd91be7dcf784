package io.redrive.workflow;

import io.redrive.store.workflow.NodeRow;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The live workflow nodes as a client sees them: listed fresh, and for a start's warning read at
 * most once per {@link #FRESH_NANOS} (a start must not cost a read; nodes publish every ten seconds
 * anyway). Thread-safe: the cached list is replaced whole.
 */
final class LiveNodes {
  /** How long a start's warning may use a list read earlier (one second). */
  static final long FRESH_NANOS = 1_000_000_000L;

  private final WorkflowStore store;
  private final Clock clock;
  private volatile Snapshot last;

  private record Snapshot(List<WorkflowNode> nodes, long readAt) {}

  LiveNodes(WorkflowStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** The nodes live now, by node id. */
  List<WorkflowNode> list() {
    List<WorkflowNode> out = new ArrayList<>();
    for (NodeRow row : store.listNodes(clock.instant())) {
      out.add(NodeRecords.fromRow(row));
    }
    last = new Snapshot(List.copyOf(out), System.nanoTime());
    return out;
  }

  /**
   * A warning when no live node runs {@code name} (of {@code version} when it is not null), else
   * null. The start stands either way: in a rolling deploy the node that runs it may come next.
   */
  String startWarning(String name, String version) {
    Snapshot s = last;
    List<WorkflowNode> nodes =
        s != null && System.nanoTime() - s.readAt() < FRESH_NANOS ? s.nodes() : list();
    for (WorkflowNode n : nodes) {
      if (n.runs(name, version)) {
        return null;
      }
    }
    String what =
        version == null
            ? "orchestration \"" + name + "\""
            : "version " + version + " of orchestration \"" + name + "\"";
    return "no live node runs "
        + what
        + "; the instance waits until a node that registers it starts";
  }
}
