package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.history.Event.RaisedEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * External events of a run, by name (docs/workflows.md, "External events"): the ones raised but not
 * yet waited for, oldest first, and the waits that no event has reached yet. Carried events come
 * first, with positions before the history's. One run, one thread.
 */
final class EventBuffer {
  private record Buffered(String name, JsonNode payload, int position) {}

  private final Map<String, Deque<Buffered>> buffered = new HashMap<>();
  private final Map<String, Deque<EventWait<?>>> waiters = new HashMap<>();

  EventBuffer(List<RaisedEvent> carried) {
    int position = -carried.size();
    for (RaisedEvent e : carried) {
      queueOf(e.name()).add(new Buffered(e.name(), e.payload(), position++));
    }
  }

  /** An event reached history at {@code position}: the oldest wait for it takes it. */
  void arrived(String name, JsonNode payload, int position) {
    Deque<EventWait<?>> queue = waiters.get(name);
    if (queue != null && !queue.isEmpty()) {
      queue.poll().receive(payload, position);
      return;
    }
    queueOf(name).add(new Buffered(name, payload, position));
  }

  /** Gives {@code wait} the oldest buffered event of its name, else queues it; true if given. */
  boolean take(EventWait<?> wait) {
    Deque<Buffered> queue = buffered.get(wait.eventName);
    if (queue != null && !queue.isEmpty()) {
      Buffered b = queue.poll();
      wait.receive(b.payload(), b.position());
      return true;
    }
    waiters.computeIfAbsent(wait.eventName, k -> new ArrayDeque<>()).add(wait);
    return false;
  }

  /** Stops {@code wait} waiting (its timeout fired first). */
  void withdraw(EventWait<?> wait) {
    Deque<EventWait<?>> queue = waiters.get(wait.eventName);
    if (queue != null) {
      queue.remove(wait);
    }
  }

  /** The buffered events, oldest first. */
  List<RaisedEvent> unconsumed() {
    List<Buffered> all = new ArrayList<>();
    buffered.values().forEach(all::addAll);
    all.sort((a, b) -> Integer.compare(a.position(), b.position()));
    List<RaisedEvent> result = new ArrayList<>();
    for (Buffered b : all) {
      result.add(new RaisedEvent(b.name(), b.payload()));
    }
    return result;
  }

  private Deque<Buffered> queueOf(String name) {
    return buffered.computeIfAbsent(name, k -> new ArrayDeque<>());
  }
}
