package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The server counts what HTTP workers and operators do, in the engine's meters on {@code /metrics}:
 * poison found by an HTTP lease, deaths by an HTTP fail, discarded and redriven messages, plus the
 * JVM and process meters.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class EngineMetricsHttpTest extends ApiTestBase {

  /** The value of the Prometheus sample {@code name} whose labels include every given pair. */
  private double sample(String scrape, String name, String... labels) {
    for (String line : scrape.split("\n")) {
      if (!line.startsWith(name + "{")) {
        continue;
      }
      boolean all = true;
      for (int i = 0; i < labels.length; i += 2) {
        all &= line.contains(labels[i] + "=\"" + labels[i + 1] + "\"");
      }
      if (all) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return 0;
  }

  private String scrape() {
    Response r = api.get("/metrics");
    assertThat(r.status()).isEqualTo(200);
    return r.body();
  }

  private void fail(JsonNode leased, String body) {
    Response r = api.post("/v1/leases/" + leased.get("token").asText() + "/fail", body);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
  }

  @Test
  void metrics_afterHttpWork_showEngineCountsAndJvm() {
    String dlq = queue("mx-dlq");
    String q = queue("mx", "maxAttempts", 1, "deadLetterQueue", dlq);
    String discarding = queue("mx-discard", "deadLetter", "discard");
    enqueue(q, "t", 1, 2, 3);
    enqueue(discarding, "t", 4);

    // poison via an HTTP lease: an abandon keeps the attempt, the next lease poisons
    JsonNode first = lease(q, 1).get(0);
    assertThat(api.post("/v1/leases/" + first.get("token").asText() + "/abandon", "{}").status())
        .isEqualTo(200);
    Response poisoning = api.post("/v1/queues/" + q + "/lease", "{\"max\":3}");
    assertThat(poisoning.get("poisoned")).hasSize(1);
    List<JsonNode> rest =
        List.of(poisoning.get("messages").get(0), poisoning.get("messages").get(1));
    // dead by an HTTP fail (moved to the DLQ), and a completion
    fail(rest.get(0), "{\"reason\":\"VALIDATION_FAILURE\",\"message\":\"bad\"}");
    assertThat(
            api.post("/v1/leases/" + rest.get(1).get("token").asText() + "/complete", "{}")
                .status())
        .isEqualTo(200);
    // discarded
    fail(lease(discarding, 1).get(0), "{\"reason\":\"HANDLER_EXCEPTION\",\"retryable\":false}");
    // redriven: the poisoned and the failed message go back from the DLQ
    Response redriven =
        api.post("/v1/queues/" + dlq + "/redrive", HttpApiClient.json(Map.of("to", q)));
    assertThat(redriven.status()).as(redriven.toString()).isEqualTo(200);

    String s = scrape();
    assertThat(sample(s, "redrive_messages_enqueued_total", "queue", q)).isEqualTo(3.0);
    assertThat(sample(s, "redrive_messages_leased_total", "queue", q)).isEqualTo(3.0);
    assertThat(sample(s, "redrive_messages_completed_total", "queue", q)).isEqualTo(1.0);
    assertThat(sample(s, "redrive_messages_dead_total", "queue", q, "reason", "POISON"))
        .isEqualTo(1.0);
    assertThat(
            sample(s, "redrive_messages_failed_total", "queue", q, "reason", "VALIDATION_FAILURE"))
        .isEqualTo(1.0);
    assertThat(sample(s, "redrive_messages_dead_total", "queue", q, "reason", "VALIDATION_FAILURE"))
        .isEqualTo(1.0);
    assertThat(
            sample(
                s,
                "redrive_messages_discarded_total",
                "queue",
                discarding,
                "reason",
                "HANDLER_EXCEPTION"))
        .isEqualTo(1.0);
    assertThat(sample(s, "redrive_messages_redriven_total", "queue", dlq, "to", q)).isEqualTo(2.0);
    assertThat(
            sample(
                s,
                "redrive_messages_lease_to_settle_seconds_count",
                "queue",
                q,
                "outcome",
                "completed"))
        .isEqualTo(1.0);
    assertThat(s).contains("redrive_messages_lease_to_settle_seconds_bucket{");
    assertThat(sample(s, "redrive_messages_enqueue_to_lease_seconds_count", "queue", q))
        .isEqualTo(3.0);
    assertThat(s)
        .contains("jvm_memory_used_bytes{")
        .contains("jvm_threads_live_threads")
        .contains("jvm_classes_loaded_classes")
        .contains("jvm_gc_")
        .contains("system_cpu_count")
        .contains("process_uptime_seconds");
  }
}
