package io.redrive.worker;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.redrive.message.MessageState;
import io.redrive.queue.QueueStats;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worker's own Micrometer meters (handler time, lease-to-start, in flight, queue depth); names
 * are listed in docs/worker.md. Message counts (leased, completed, failed, dead …) are the
 * engine's, counted once for every caller. Entered by the runners, the timers, the settle thread
 * and the poller; thread-safe without a lock (atomics, Micrometer's meters).
 */
final class WorkerMetrics {
  private static final Map<MeterRegistry, Map<String, AtomicLong>> DEPTH_GAUGES =
      Collections.synchronizedMap(new WeakHashMap<>());
  private static final Map<MeterRegistry, Map<String, AtomicInteger>> IN_FLIGHT_GAUGES =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final MeterRegistry registry;
  private final String queue;
  private final AtomicInteger inFlight;
  private final Map<MessageState, AtomicLong> depth = new EnumMap<>(MessageState.class);

  WorkerMetrics(MeterRegistry registry, String queue, String workerId) {
    this.registry = registry;
    this.queue = queue;
    this.inFlight = inFlightGauge(registry, queue, workerId);
    inFlight.set(0);
    for (MessageState state :
        new MessageState[] {
          MessageState.READY, MessageState.SCHEDULED, MessageState.LEASED, MessageState.DEAD
        }) {
      depth.put(state, depthGauge(registry, queue, state));
    }
  }

  /** One gauge per registry, queue and worker id, so a restarted worker reuses it. */
  private static AtomicInteger inFlightGauge(
      MeterRegistry registry, String queue, String workerId) {
    Map<String, AtomicInteger> gauges =
        IN_FLIGHT_GAUGES.computeIfAbsent(registry, r -> new ConcurrentHashMap<>());
    return gauges.computeIfAbsent(
        queue + "\u0000" + workerId,
        k -> {
          AtomicInteger value = new AtomicInteger();
          Gauge.builder("redrive.worker.in.flight", value, AtomicInteger::get)
              .description("handlers running now")
              .tags("queue", queue, "worker", workerId)
              .strongReference(true)
              .register(registry);
          return value;
        });
  }

  /** One gauge per registry, queue and state, shared by every worker of the queue. */
  private static AtomicLong depthGauge(MeterRegistry registry, String queue, MessageState state) {
    Map<String, AtomicLong> gauges =
        DEPTH_GAUGES.computeIfAbsent(registry, r -> new ConcurrentHashMap<>());
    return gauges.computeIfAbsent(
        queue + "\u0000" + state,
        k -> {
          AtomicLong value = new AtomicLong();
          Gauge.builder("redrive.queue.depth", value, AtomicLong::get)
              .description("messages in the queue by state, as last seen by a worker")
              .tags("queue", queue, "state", state.name())
              .strongReference(true)
              .register(registry);
          return value;
        });
  }

  void handlerDuration(String type, String outcome, long nanos) {
    Timer.builder("redrive.worker.handler.duration")
        .tags("queue", queue, "type", type, "outcome", outcome)
        .register(registry)
        .record(Duration.ofNanos(nanos));
  }

  void leaseToStart(long nanos) {
    Timer.builder("redrive.worker.lease.to.start")
        .tags("queue", queue)
        .register(registry)
        .record(Duration.ofNanos(nanos));
  }

  void started() {
    inFlight.incrementAndGet();
  }

  void finished() {
    inFlight.decrementAndGet();
  }

  void depth(QueueStats stats) {
    depth.get(MessageState.READY).set(stats.ready());
    depth.get(MessageState.SCHEDULED).set(stats.scheduled());
    depth.get(MessageState.LEASED).set(stats.leased() + stats.leaseExpired());
    depth.get(MessageState.DEAD).set(stats.dead());
  }
}
