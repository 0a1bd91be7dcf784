package io.redrive.worker;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.redrive.failure.FailureReason;
import io.redrive.message.MessageState;
import io.redrive.queue.QueueStats;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The worker's Micrometer meters; names are listed in docs/worker.md. Thread-safe. */
final class WorkerMetrics {
  private final MeterRegistry registry;
  private final String queue;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Map<MessageState, AtomicLong> depth = new EnumMap<>(MessageState.class);

  WorkerMetrics(MeterRegistry registry, String queue, String workerId) {
    this.registry = registry;
    this.queue = queue;
    Gauge.builder("redrive.worker.in.flight", inFlight, AtomicInteger::get)
        .description("handlers running now")
        .tags("queue", queue, "worker", workerId)
        .register(registry);
    for (MessageState state :
        new MessageState[] {
          MessageState.READY, MessageState.SCHEDULED, MessageState.LEASED, MessageState.DEAD
        }) {
      AtomicLong value = new AtomicLong();
      depth.put(state, value);
      Gauge.builder("redrive.queue.depth", value, AtomicLong::get)
          .description("messages in the queue by state, as last seen by this worker")
          .tags("queue", queue, "state", state.name())
          .register(registry);
    }
  }

  void leased(int n) {
    counter("redrive.worker.leased").increment(n);
  }

  void poisoned(int n) {
    counter("redrive.worker.poisoned").increment(n);
  }

  void completed(String type) {
    counter("redrive.worker.completed", "type", type).increment();
  }

  void failed(String type, FailureReason reason) {
    counter("redrive.worker.failed", "type", type, "reason", reason.name()).increment();
  }

  void dead(String type, FailureReason reason) {
    counter("redrive.worker.dead", "type", type, "reason", reason.name()).increment();
  }

  void unregistered(String type) {
    counter("redrive.worker.unregistered", "type", type).increment();
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

  private Counter counter(String name, String... tags) {
    return Counter.builder(name).tag("queue", queue).tags(tags).register(registry);
  }
}
