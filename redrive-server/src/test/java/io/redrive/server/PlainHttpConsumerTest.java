package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A consumer as a user of another language would write it: java.net.http and JSON only, no Java
 * client of ours. It long-polls for work, completes good messages and fails bad ones until their
 * retries run out and they land in the dead-letter queue.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class PlainHttpConsumerTest extends ApiTestBase {

  private String base;

  private JsonNode call(String method, String path, String body) throws Exception {
    return PlainHttp.call(base, method, path, body);
  }

  @Test
  void consumer_leasesFailsAndCompletes_endToEnd() throws Exception {
    base = server.baseUrl();
    String dlq = TestServers.unique("plain-dlq");
    String q = TestServers.unique("plain");
    call("POST", "/v1/queues", "{\"name\":\"" + dlq + "\"}");
    call(
        "POST",
        "/v1/queues",
        "{\"name\":\""
            + q
            + "\",\"retry\":{\"attempts\":3,\"cooldown\":\"0s\"},\"deadLetterQueue\":\""
            + dlq
            + "\"}");
    StringBuilder batch = new StringBuilder("{\"messages\":[");
    int total = 30;
    for (int i = 0; i < total; i++) {
      boolean bad = i % 5 == 0;
      batch
          .append(i == 0 ? "" : ",")
          .append("{\"type\":\"")
          .append(bad ? "bad" : "good")
          .append("\",\"payload\":{\"n\":")
          .append(i)
          .append("}}");
    }
    batch.append("]}");
    call("POST", "/v1/queues/" + q + "/messages", batch.toString());

    Set<Integer> completed = ConcurrentHashMap.newKeySet();
    Map<Integer, AtomicInteger> failures = new ConcurrentHashMap<>();
    AtomicInteger doubleCompletions = new AtomicInteger();
    AtomicInteger died = new AtomicInteger();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    ExecutorService consumers = Executors.newFixedThreadPool(2);
    for (int w = 0; w < 2; w++) {
      String worker = "plain-" + w;
      consumers.submit(
          () -> {
            while (System.nanoTime() < deadline
                && (completed.size() < total - 6 || died.get() < 6)) {
              JsonNode leased =
                  call(
                      "POST",
                      "/v1/queues/" + q + "/lease",
                      "{\"worker\":\"" + worker + "\",\"max\":4,\"wait\":\"1s\"}");
              for (JsonNode m : leased.get("messages")) {
                int n = m.get("payload").get("n").asInt();
                String token = m.get("token").asText();
                if (m.get("type").asText().equals("bad")) {
                  failures.computeIfAbsent(n, k -> new AtomicInteger()).incrementAndGet();
                  JsonNode settled =
                      call(
                          "POST",
                          "/v1/leases/" + token + "/fail",
                          "{\"reason\":\"HANDLER_EXCEPTION\",\"message\":\"cannot handle "
                              + n
                              + "\"}");
                  if (settled.get("state").asText().equals("DEAD")) {
                    assertThat(settled.get("deadLetterQueue").asText()).isEqualTo(dlq);
                    died.incrementAndGet();
                  }
                } else {
                  call("POST", "/v1/leases/" + token + "/complete", "{\"progress\":1}");
                  if (!completed.add(n)) {
                    doubleCompletions.incrementAndGet();
                  }
                }
              }
            }
            return null;
          });
    }
    consumers.shutdown();
    assertThat(consumers.awaitTermination(40, TimeUnit.SECONDS)).isTrue();

    assertThat(completed).hasSize(total - 6);
    assertThat(doubleCompletions).hasValue(0);
    JsonNode dead = call("GET", "/v1/queues/" + dlq + "/messages?state=dead", null);
    assertThat(dead.get("messages")).hasSize(6);
    for (JsonNode d : dead.get("messages")) {
      assertThat(d.get("sourceQueue").asText()).isEqualTo(q);
      assertThat(d.get("deadReason").asText()).isEqualTo("HANDLER_EXCEPTION");
      JsonNode full = call("GET", "/v1/messages/" + d.get("id").asText(), null);
      long failed =
          java.util.stream.StreamSupport.stream(full.get("history").spliterator(), false)
              .filter(e -> e.get("outcome").asText().equals("FAILED"))
              .count();
      assertThat(failed).isEqualTo(3);
    }
    assertThat(failures.values()).allSatisfy(c -> assertThat(c.get()).isEqualTo(3));
    JsonNode stats = call("GET", "/v1/queues/" + q + "/stats", null);
    assertThat(stats.get("total").asInt()).isZero();
  }
}
