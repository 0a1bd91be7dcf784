package io.redrive.sqlite.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.sqlite.SqliteFixture;
import io.redrive.testkit.StoreFixture;
import io.redrive.testkit.worker.WorkerScenarioBase;
import io.redrive.trace.MessageTracing;
import io.redrive.worker.HandlerResult;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Without OpenTelemetry on the class path (this module never has it), the engine's default tracing
 * lets a message go from enqueue through a worker to completion and adds no trace header.
 */
class SqliteDefaultTracingTest extends WorkerScenarioBase {
  @Override
  protected StoreFixture fixture() {
    return SqliteFixture.INSTANCE;
  }

  @Test
  void enqueueWorkerComplete_withoutOpenTelemetry_worksAndAddsNoTraceHeader() {
    assertThatThrownBy(() -> Class.forName("io.opentelemetry.api.OpenTelemetry"))
        .isInstanceOf(ClassNotFoundException.class);
    assertThat(redrive.tracing()).isSameAs(MessageTracing.NONE);
    createQueue(fastPolicy());
    AtomicReference<Map<String, String>> seen = new AtomicReference<>();
    String id = enqueue(TYPE);

    start(
        worker()
            .handler(
                TYPE,
                ctx -> {
                  seen.set(ctx.headers());
                  return HandlerResult.complete();
                }));

    awaitCompleted(id);
    assertThat(seen.get()).doesNotContainKeys("traceparent", "tracestate");
  }
}
