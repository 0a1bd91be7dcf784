package io.redrive.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.message.NewMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Core runs without OpenTelemetry: it is not on this module's class path, and the default tracing
 * adds nothing. (An enqueue → worker → complete on a real store with the default tracing is
 * redrive-sqlite's SqliteDefaultTracingTest, also without OpenTelemetry.)
 */
class NoTracingTest {

  @Test
  void openTelemetry_isNotOnCoresClassPath() {
    assertThatThrownBy(() -> Class.forName("io.opentelemetry.api.OpenTelemetry"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void none_addsNoHeaderAndItsPartsDoNothing() {
    PublishTrace publish =
        MessageTracing.NONE.publish(List.of(NewMessage.builder("q", "t").build()));
    assertThat(publish.headers()).isEmpty();
    publish.end(List.of("id"), null);

    HandlerTrace trace = MessageTracing.NONE.process(new Delivery("q", "id", "t", null, 1, 5, "w"));
    try (TraceScope scope = trace.activate()) {
      trace.event(DeliveryEvent.of(DeliveryEvent.Kind.LEASED, 1, "w"));
      trace.failed(new IllegalStateException("boom"));
    }
    trace.end();
  }

  @Test
  void deliveryEvent_withoutAKind_isRejected() {
    assertThatThrownBy(() -> new DeliveryEvent(null, 1, "w", null, null, null, null))
        .hasMessage("kind: is required");
  }
}
