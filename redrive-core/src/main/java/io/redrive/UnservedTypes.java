package io.redrive;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.lease.LiveWorker;
import io.redrive.lease.QueueWorkers;
import io.redrive.lease.WaitingType;
import io.redrive.store.LiveWorkersParams;
import io.redrive.store.Store;
import io.redrive.store.WaitingTypesParams;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The "no live worker can take X" alert (docs/engine.md, "Live workers and unserved types"): a type
 * is unserved in a queue when its oldest ready message has waited longer than {@code after} and no
 * lease call within {@code after} named the type or named no types. Each node reads it from the
 * store (the live-worker records and the queue's oldest ready messages), so every node agrees;
 * {@link #check} keeps what this node raised, logging a WARN once per raise and an INFO when it
 * clears, and a gauge {@code redrive.queue.unserved.types} per raised queue and type (the seconds
 * its oldest ready message had waited at the last check). Thread-safe: the maintenance thread
 * checks, request threads read.
 */
final class UnservedTypes {
  /** Most of a queue's oldest ready messages one check reads. */
  static final int SCAN_LIMIT = 10_000;

  private final Store store;
  private final Duration after;
  private final MeterRegistry meters;
  private final Map<Key, Raised> raised = new ConcurrentHashMap<>();

  private record Key(String queue, String type) {}

  private record Raised(WaitingType type, AtomicLong waitedSeconds, Gauge gauge) {}

  UnservedTypes(Store store, Duration after, MeterRegistry meters) {
    this.store = store;
    this.after = after;
    this.meters = meters;
  }

  Duration after() {
    return after;
  }

  /** A queue's live workers and unserved types at {@code now}, read from the store. */
  QueueWorkers read(String queue, Instant now) {
    Instant since = now.minus(after);
    List<LiveWorker> live = store.liveWorkers(new LiveWorkersParams(queue, since));
    List<WaitingType> unserved = new ArrayList<>();
    if (live.stream().noneMatch(w -> w.types().isEmpty())) {
      for (WaitingType t : store.waitingTypes(new WaitingTypesParams(queue, since, SCAN_LIMIT))) {
        if (live.stream().noneMatch(w -> w.takes(t.type()))) {
          unserved.add(t);
        }
      }
    }
    return new QueueWorkers(queue, after, live, unserved);
  }

  /**
   * Whether a live worker's leases name {@code type} on {@code queue} (an untyped lease does not:
   * it is the one that bounces a type it lacks). When the store cannot answer, true: the attempt
   * then counts, as it always did.
   */
  boolean named(String queue, String type, Instant now) {
    try {
      return store.liveWorkers(new LiveWorkersParams(queue, now.minus(after))).stream()
          .anyMatch(w -> w.names(type));
    } catch (RuntimeException e) {
      EngineLog.LOG.debug("live workers of {} unreadable: {}", queue, e.toString());
      return true;
    }
  }

  /** Reads every queue in {@code queues}, raising and clearing alerts; returns the raised ones. */
  List<WaitingType> check(List<String> queues, Instant now) {
    Map<Key, WaitingType> found = new HashMap<>();
    for (String queue : queues) {
      for (WaitingType t : read(queue, now).unserved()) {
        found.put(new Key(queue, t.type()), t);
      }
    }
    found.forEach((key, t) -> raise(key, t, now));
    for (Key key : List.copyOf(raised.keySet())) {
      if (!found.containsKey(key)) {
        clear(key);
      }
    }
    return raised();
  }

  /** The types this node raised at its last check, by queue then type. */
  List<WaitingType> raised() {
    return raised.values().stream()
        .map(Raised::type)
        .sorted(Comparator.comparing(WaitingType::queue).thenComparing(WaitingType::type))
        .toList();
  }

  private void raise(Key key, WaitingType t, Instant now) {
    long waited = Duration.between(t.readySince(), now).toSeconds();
    Raised was = raised.get(key);
    if (was != null) {
      was.waitedSeconds().set(waited);
      raised.put(key, new Raised(t, was.waitedSeconds(), was.gauge()));
      return;
    }
    AtomicLong seconds = new AtomicLong(waited);
    Gauge gauge =
        meters == null
            ? null
            : Gauge.builder("redrive.queue.unserved.types", seconds, AtomicLong::get)
                .description(
                    "seconds the oldest ready message of a type no live worker takes waited")
                .baseUnit("seconds")
                .tags("queue", key.queue(), "type", key.type())
                .register(meters);
    raised.put(key, new Raised(t, seconds, gauge));
    EngineLog.LOG.warn(
        "no live worker takes type {} in queue {}: its oldest ready message has waited {} (since"
            + " {}) and no lease named the type or every type within {}",
        key.type(),
        key.queue(),
        Duration.ofSeconds(waited),
        t.readySince(),
        after);
  }

  private void clear(Key key) {
    Raised was = raised.remove(key);
    if (was == null) {
      return;
    }
    if (was.gauge() != null) {
      meters.remove(was.gauge());
    }
    EngineLog.LOG.info(
        "type {} in queue {} is served again (a live worker takes it, or nothing of it waits)",
        key.type(),
        key.queue());
  }
}
