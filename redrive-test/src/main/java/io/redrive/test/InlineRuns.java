package io.redrive.test;

import io.redrive.Redrive;
import io.redrive.store.ReadySubscription;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Inline mode: listens for "messages may be ready" on each queue with handlers and, when the signal
 * comes from inside {@code Redrive.enqueue} on the enqueuing thread (after its own commit), drains
 * that queue right there, so the handler has run when {@code enqueue} returns. Signals from other
 * threads (a PostgreSQL notification of another transaction's commit) are left to an explicit
 * drain, so what runs inline does not depend on the store.
 */
final class InlineRuns {
  private static final StackWalker WALKER = StackWalker.getInstance();
  private static final ThreadLocal<Set<String>> DRAINING = ThreadLocal.withInitial(HashSet::new);

  private final Redrive engine;
  private final Drainer drainer;
  private final Map<String, ReadySubscription> watched = new ConcurrentHashMap<>();
  private final List<DrainedMessage> ran = new ArrayList<>();
  private final List<RuntimeException> errors = new ArrayList<>();
  private volatile boolean on;

  InlineRuns(Redrive engine, Drainer drainer) {
    this.engine = engine;
    this.drainer = drainer;
  }

  void watch(String queue) {
    watched.computeIfAbsent(queue, q -> engine.subscribeReady(q, () -> ready(q)));
  }

  void enable(boolean value) {
    on = value;
  }

  /**
   * What ran inline; a failure of an inline drain (no handler for a type) is thrown here, since the
   * store's signal, which ran it, only logs what its listeners throw.
   */
  synchronized DrainReport report() {
    if (!errors.isEmpty()) {
      throw new IllegalStateException(
          "inline mode failed: " + errors.get(0).getMessage(), errors.get(0));
    }
    return new DrainReport(ran);
  }

  synchronized void clear() {
    ran.clear();
    errors.clear();
  }

  private void ready(String queue) {
    if (!on || !insideEnqueue()) {
      return;
    }
    Set<String> draining = DRAINING.get();
    if (!draining.add(queue)) {
      return; // a handler enqueued to its own queue: the drain in progress takes it next
    }
    try {
      DrainReport r = drainer.drain(queue, Drain.defaults());
      synchronized (this) {
        ran.addAll(r.runs());
      }
    } catch (RuntimeException e) {
      synchronized (this) {
        errors.add(e);
      }
      throw e;
    } finally {
      draining.remove(queue);
    }
  }

  private static boolean insideEnqueue() {
    return WALKER.walk(
        frames ->
            frames.anyMatch(
                f ->
                    f.getClassName().equals(Redrive.class.getName())
                        && f.getMethodName().startsWith("enqueue")));
  }
}
