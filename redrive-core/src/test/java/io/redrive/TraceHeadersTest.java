package io.redrive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.message.EnqueueResult;
import io.redrive.message.NewMessage;
import io.redrive.trace.Delivery;
import io.redrive.trace.HandlerTrace;
import io.redrive.trace.MessageTracing;
import io.redrive.trace.PublishTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceHeadersTest {
  private static final Map<String, String> TRACE =
      Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

  /** Hands out {@link #TRACE} and records how each publish ended. */
  private static final class Recording implements MessageTracing {
    final List<String> ended = new ArrayList<>();

    @Override
    public PublishTrace publish(List<NewMessage> messages) {
      return new PublishTrace() {
        @Override
        public Map<String, String> headers() {
          return TRACE;
        }

        @Override
        public void end(List<String> ids, RuntimeException error) {
          ended.add(error == null ? "ok " + ids : "error " + error.getMessage());
        }
      };
    }

    @Override
    public HandlerTrace process(Delivery delivery) {
      return MessageTracing.NONE.process(delivery);
    }
  }

  @Test
  void publish_addsTheHeadersToMessagesWithoutThem_andKeepsACallersOwn() {
    Recording tracing = new Recording();
    NewMessage plain = NewMessage.builder("q", "t").headers(Map.of("a", "1")).build();
    NewMessage own =
        NewMessage.builder("q", "t").headers(Map.of("traceparent", "client's")).build();
    List<NewMessage> written = new ArrayList<>();

    TraceHeaders.publish(
        tracing,
        List.of(plain, own),
        carried -> {
          written.addAll(carried);
          return List.of(new EnqueueResult("m1", false), new EnqueueResult("m2", false));
        });

    assertThat(written.get(0).headers()).containsEntry("a", "1").containsAllEntriesOf(TRACE);
    assertThat(written.get(1).headers()).containsExactly(Map.entry("traceparent", "client's"));
    assertThat(tracing.ended).containsExactly("ok [m1, m2]");
  }

  @Test
  void publish_whenTheWriteFails_endsTheTraceWithTheErrorAndRethrows() {
    Recording tracing = new Recording();

    assertThatThrownBy(
            () ->
                TraceHeaders.publish(
                    tracing,
                    List.of(NewMessage.builder("q", "t").build()),
                    carried -> {
                      throw new IllegalStateException("disk full");
                    }))
        .hasMessage("disk full");
    assertThat(tracing.ended).containsExactly("error disk full");
  }

  @Test
  void publish_withNoTracing_writesTheMessagesAsGiven() {
    List<NewMessage> given = List.of(NewMessage.builder("q", "t").build());
    List<List<NewMessage>> written = new ArrayList<>();

    TraceHeaders.publish(
        MessageTracing.NONE,
        given,
        carried -> {
          written.add(carried);
          return List.of();
        });

    assertThat(written).containsExactly(given);
  }
}
