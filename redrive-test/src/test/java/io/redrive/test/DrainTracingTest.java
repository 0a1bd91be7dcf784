package io.redrive.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.trace.Delivery;
import io.redrive.trace.DeliveryEvent;
import io.redrive.trace.HandlerTrace;
import io.redrive.trace.MessageTracing;
import io.redrive.trace.PublishTrace;
import io.redrive.trace.TraceScope;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A drain traces each handler run as a worker does: inside its delivery, ended by the settle. */
class DrainTracingTest {
  static final List<String> SEEN = new CopyOnWriteArrayList<>();
  static final ThreadLocal<String> ACTIVE = new ThreadLocal<>();

  /** Records what the engine tells a tracer, as strings, without OpenTelemetry. */
  static final MessageTracing RECORDING =
      new MessageTracing() {
        @Override
        public PublishTrace publish(List<NewMessage> messages) {
          return new PublishTrace() {
            @Override
            public Map<String, String> headers() {
              return Map.of(
                  "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            }

            @Override
            public void end(List<String> ids, RuntimeException error) {}
          };
        }

        @Override
        public HandlerTrace process(Delivery delivery) {
          return new HandlerTrace() {
            @Override
            public TraceScope activate() {
              ACTIVE.set(delivery.messageId());
              return ACTIVE::remove;
            }

            @Override
            public void event(DeliveryEvent event) {
              SEEN.add(event.kind() + "@" + event.attempt() + " by " + event.worker());
            }

            @Override
            public void failed(Throwable error) {
              SEEN.add("failed: " + error.getMessage());
            }

            @Override
            public void end() {
              SEEN.add("end " + delivery.headers().get("traceparent").substring(3, 11));
            }
          };
        }
      };

  @RegisterExtension
  static RedriveExtension redrive = RedriveExtension.sqlite().configure(b -> b.tracing(RECORDING));

  @Test
  void eachRunIsTracedFromLeaseToSettle(TestRedrive kit) {
    SEEN.clear();
    kit.queue("q", QueuePolicy.defaults().withRetry(2, Duration.ofMinutes(1)));
    List<String> activeInHandler = new CopyOnWriteArrayList<>();
    kit.handle(
        "q",
        "t",
        ctx -> {
          activeInHandler.add(ACTIVE.get());
          if (ctx.attempt() == 1) {
            throw new IllegalStateException("first try");
          }
          return HandlerResult.complete();
        });
    String id = kit.engine().enqueue(NewMessage.builder("q", "t").payload("{}").build()).id();

    kit.drain("q", Drain.defaults().followRetries());

    assertThat(activeInHandler).containsExactly(id, id);
    assertThat(SEEN)
        .containsExactly(
            "LEASED@1 by redrive-test",
            "failed: first try",
            "RETRY_SCHEDULED@1 by redrive-test",
            "end 0af76519",
            "LEASED@2 by redrive-test",
            "COMPLETED@2 by redrive-test",
            "end 0af76519");
  }
}
