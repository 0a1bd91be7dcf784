package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.redrive.failure.FailureReason;
import io.redrive.queue.QueuePolicy;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** After a small run, every worker meter exists with the counts the run implies. */
public abstract class MetricsScenarios extends WorkerScenarioBase {

  private double count(String name, String... tags) {
    Counter c = meters.find(name).tags("queue", QUEUE).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void metrics_afterSmallRun_everyMeterPresentWithPlausibleCounts() {
    createQueue(QueuePolicy.defaults().withRetry(2, COOLDOWN).withLeaseTimeout(LEASE));
    List<String> ok = enqueueMany("ok", 3);
    String flaky = enqueue("flaky");
    String invalid = enqueue("invalid");
    // A worker naming the type is live, so the unknown type's abandons count (docs/engine.md).
    redrive.lease(
        io.redrive.lease.LeaseRequest.of(QUEUE, "new-build", 1)
            .withTypes(java.util.Set.of("unknown")));
    String unknown = enqueue("unknown");

    start(
        worker()
            .id("metrics-worker")
            .leaseOnlyHandledTypes(false) // it bounces "unknown"
            .queueDepthInterval(Duration.ofMillis(50))
            .unregisteredBackoff(
                new UnregisteredHandlerBackoff(Duration.ofMillis(10), 0, Duration.ofMillis(10)))
            .handler(
                "ok",
                ctx -> {
                  Thread.sleep(5);
                  return HandlerResult.complete();
                })
            .handler(
                "flaky",
                ctx ->
                    ctx.attempt() == 1
                        ? HandlerResult.fail(FailureReason.TRANSPORT_UNAVAILABLE, "reset")
                        : HandlerResult.complete())
            .handler(
                "invalid",
                ctx -> HandlerResult.fail(FailureReason.VALIDATION_FAILURE, "bad input")));

    awaitCompleted(ok);
    awaitCompleted(flaky);
    awaitDead(invalid);
    awaitDead(unknown);
    eventually()
        .until(
            () -> {
              Gauge dead =
                  meters.find("redrive.queue.depth").tags("queue", QUEUE, "state", "DEAD").gauge();
              return dead != null && dead.value() == 2.0;
            });

    // Message counts are the engine's (the worker counts nothing twice):
    // ok 3 + flaky 2 + invalid 1 + unknown 2 (the third lease poisons it instead)
    assertThat(count("redrive.messages.leased")).isEqualTo(8.0);
    assertThat(count("redrive.messages.completed")).isEqualTo(4.0);
    assertThat(count("redrive.messages.failed", "reason", "TRANSPORT_UNAVAILABLE")).isEqualTo(1.0);
    assertThat(count("redrive.messages.failed", "reason", "VALIDATION_FAILURE")).isEqualTo(1.0);
    assertThat(count("redrive.messages.failed", "reason", "UNREGISTERED_HANDLER")).isEqualTo(2.0);
    assertThat(count("redrive.messages.dead", "reason", "VALIDATION_FAILURE")).isEqualTo(1.0);
    assertThat(count("redrive.messages.dead", "reason", "POISON")).isEqualTo(1.0);
    assertThat(count("redrive.messages.retried", "kind", "automatic")).isEqualTo(3.0);
    for (String gone :
        List.of(
            "redrive.worker.leased",
            "redrive.worker.completed",
            "redrive.worker.failed",
            "redrive.worker.dead",
            "redrive.worker.poisoned",
            "redrive.worker.unregistered")) {
      assertThat(meters.find(gone).meters()).as(gone).isEmpty();
    }
    Timer flakyCompleted =
        meters
            .find("redrive.worker.handler.duration")
            .tags("queue", QUEUE, "type", "flaky", "outcome", "completed")
            .timer();
    assertThat(flakyCompleted.count())
        .as("completions by type, from the handler timer")
        .isEqualTo(1);

    Timer completed =
        meters
            .find("redrive.worker.handler.duration")
            .tags("queue", QUEUE, "type", "ok", "outcome", "completed")
            .timer();
    assertThat(completed).isNotNull();
    assertThat(completed.count()).isEqualTo(3);
    assertThat(completed.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS))
        .isGreaterThanOrEqualTo(15.0);
    Timer failed =
        meters
            .find("redrive.worker.handler.duration")
            .tags("queue", QUEUE, "outcome", "failed")
            .timers()
            .stream()
            .reduce((a, b) -> a)
            .orElse(null);
    assertThat(failed).isNotNull();
    Timer leaseToStart = meters.find("redrive.worker.lease.to.start").tags("queue", QUEUE).timer();
    assertThat(leaseToStart).isNotNull();
    // every delivery that reached a handler: ok 3 + flaky 2 + invalid 1
    assertThat(leaseToStart.count()).isEqualTo(6);

    Gauge inFlight =
        meters
            .find("redrive.worker.in.flight")
            .tags("queue", QUEUE, "worker", "metrics-worker")
            .gauge();
    assertThat(inFlight).isNotNull();
    eventually().until(() -> inFlight.value() == 0.0);
    for (String state : List.of("READY", "SCHEDULED", "LEASED", "DEAD")) {
      assertThat(meters.find("redrive.queue.depth").tags("queue", QUEUE, "state", state).gauge())
          .as("redrive.queue.depth{state=%s}", state)
          .isNotNull();
    }
  }

  @Test
  void metrics_slowDown_isLabelledSlowed_neverFailed() {
    createQueue(QueuePolicy.defaults().withLeaseTimeout(LEASE));
    String id = enqueue("busy");
    java.util.concurrent.atomic.AtomicInteger runs =
        new java.util.concurrent.atomic.AtomicInteger();

    start(
        worker()
            .id("slowed-worker")
            .handler(
                "busy",
                ctx ->
                    runs.incrementAndGet() == 1
                        ? HandlerResult.slowDown(Duration.ofMillis(20))
                        : HandlerResult.complete()));
    awaitCompleted(id);

    Timer slowed =
        meters
            .find("redrive.worker.handler.duration")
            .tags("queue", QUEUE, "type", "busy", "outcome", "slowed")
            .timer();
    assertThat(slowed).as("a slow-down has its own outcome").isNotNull();
    assertThat(slowed.count()).isEqualTo(1);
    assertThat(
            meters
                .find("redrive.worker.handler.duration")
                .tags("queue", QUEUE, "type", "busy", "outcome", "failed")
                .timer())
        .as("a slow-down is no failure")
        .isNull();
    assertThat(count("redrive.messages.failed")).isZero();
  }
}
