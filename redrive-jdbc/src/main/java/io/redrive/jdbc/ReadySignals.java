package io.redrive.jdbc;

import io.redrive.store.ReadySubscription;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** In-process listeners waiting for "messages may be ready in queue q". Thread-safe. */
final class ReadySignals {
  private static final Logger LOG = LoggerFactory.getLogger(ReadySignals.class);

  private final Map<String, Set<Runnable>> listeners = new ConcurrentHashMap<>();

  ReadySubscription subscribe(String queue, Runnable listener) {
    Set<Runnable> set = listeners.computeIfAbsent(queue, q -> new CopyOnWriteArraySet<>());
    set.add(listener);
    return () -> set.remove(listener);
  }

  void signal(String queue) {
    Set<Runnable> set = listeners.get(queue);
    if (set == null) {
      return;
    }
    for (Runnable listener : set) {
      try {
        listener.run();
      } catch (RuntimeException e) {
        LOG.warn("a ready listener of queue {} failed", queue, e);
      }
    }
  }
}
