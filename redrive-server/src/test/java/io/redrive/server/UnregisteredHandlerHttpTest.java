package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.Redrive;
import io.redrive.server.HttpApiClient.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * An HTTP worker that fails with UNREGISTERED_HANDLER gets what the Java worker gets: an abandon
 * with the unregistered-handler backoff (1 s, 2 s, …), the attempt counted, an ABANDONED history
 * entry naming the type and worker, and the WARN naming the attempts left before poison.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class UnregisteredHandlerHttpTest extends ApiTestBase {
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private Logger engineLog;

  @BeforeEach
  void captureEngineLog() {
    engineLog = (Logger) LoggerFactory.getLogger(Redrive.class);
    logs.start();
    engineLog.addAppender(logs);
  }

  @AfterEach
  void releaseEngineLog() {
    engineLog.detachAppender(logs);
  }

  private Response failUnregistered(JsonNode leased) {
    return api.post(
        "/v1/leases/" + leased.get("token").asText() + "/fail",
        "{\"reason\":\"unregistered_handler\",\"message\":\"no such handler in py-worker\"}");
  }

  @Test
  void fail_unregisteredHandler_abandonedWithUnregisteredBackoffAndWarn() {
    String q = queue("unreg", "maxAttempts", 3);
    // A worker naming the type is live, so the abandon counts (docs/engine.md, "Live workers and
    // unserved types"; without one it is refunded).
    api.post(
        "/v1/queues/" + q + "/lease",
        "{\"worker\":\"py-8\",\"max\":1,\"types\":[\"resize-image\"]}");
    String id = enqueue(q, "resize-image", 1).get(0);

    JsonNode leased =
        api.post("/v1/queues/" + q + "/lease", "{\"worker\":\"py-7\",\"max\":1}")
            .get("messages")
            .get(0);
    Response r = failUnregistered(leased);

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("state").asText()).isEqualTo("SCHEDULED");
    JsonNode m = api.get("/v1/messages/" + id).json();
    assertThat(m.get("attempts").asInt()).isEqualTo(1);
    JsonNode entry = m.get("history").get(m.get("history").size() - 1);
    assertThat(entry.get("outcome").asText()).isEqualTo("ABANDONED");
    assertThat(entry.get("failure").get("reason").asText()).isEqualTo("UNREGISTERED_HANDLER");
    assertThat(entry.get("note").asText())
        .startsWith(
            "no handler for type resize-image on worker py-7: no such handler in py-worker");
    Instant settledAt = Instant.parse(entry.get("settledAt").asText());
    assertThat(Instant.parse(m.get("visibleAt").asText()))
        .isEqualTo(settledAt.plus(Duration.ofSeconds(1)));
    assertThat(m.get("history").toString()).doesNotContain("\"FAILED\"");
    List<String> warnings =
        logs.list.stream()
            .filter(e -> e.getLevel() == Level.WARN)
            .map(ILoggingEvent::getFormattedMessage)
            .filter(text -> text.contains(id))
            .toList();
    assertThat(warnings)
        .containsExactly(
            "no handler for type resize-image on worker py-7: message "
                + id
                + " (queue "
                + q
                + ", attempt 1/3) abandoned with PT1S backoff; it will be poisoned after 2 more"
                + " attempts");
  }

  @Test
  void fail_unregisteredHandlerRetryableFalse_deadAtOnce() {
    String q = queue("unreg-dead");
    String id = enqueue(q, "resize-image", 1).get(0);
    JsonNode leased = lease(q, 1).get(0);

    Response r =
        api.post(
            "/v1/leases/" + leased.get("token").asText() + "/fail",
            "{\"reason\":\"UNREGISTERED_HANDLER\",\"retryable\":false}");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("state").asText()).isEqualTo("DEAD");
    assertThat(api.get("/v1/messages/" + id).get("deadReason").asText())
        .isEqualTo("UNREGISTERED_HANDLER");
  }
}
