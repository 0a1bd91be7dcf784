package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.store.Store;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A workflow whose activities no Java worker runs: the server's runtime takes only orchestration
 * turns, and a consumer written as a user of another language would write it (java.net.http and
 * JSON, no Java client of ours) long-polls the activity queue, runs "Charge" and "Ship" by their
 * message type and payload, fails one delivery once and completes the others with a {@code result}.
 * The activity's retry policy retries the failed one; the instance completes with an output built
 * from the results, all seen over the HTTP API.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class PlainHttpActivityWorkerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Parameter StoreKind kind;
  private StoreKind.TestDb db;
  private Store store;
  private RedriveServer server;
  private String base;

  /** Charge (retried up to 3 times, 100 ms apart) then Ship; neither is registered in Java. */
  static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Checkout",
            "1.0.0",
            JsonNode.class,
            JsonNode.class,
            (ctx, order) -> {
              JsonNode charge =
                  ctx.callActivity(
                          "Charge",
                          order,
                          new TypeReference<JsonNode>() {},
                          ActivityOptions.defaults()
                              .withRetry(RetryPolicy.fixed(3, Duration.ofMillis(100))))
                      .await();
              JsonNode ship = ctx.callActivity("Ship", order, JsonNode.class).await();
              ObjectNode out = JsonNodeFactory.instance.objectNode();
              out.put("receipt", charge.get("receipt").asText());
              out.put("tracking", ship.get("tracking").asText());
              return out;
            })
        .build();
  }

  @BeforeEach
  void start() {
    db = kind.newDatabase();
    store = db.open();
    server =
        RedriveServer.start(
            TestServers.config(),
            TestServers.ALLOW_ALL,
            store,
            redrive ->
                WorkflowRuntime.builder(redrive, registry())
                    .nodeId("orchestrations-only")
                    .roles(WorkflowRuntime.Role.ORCHESTRATIONS)
                    .pollInterval(Duration.ofMillis(50))
                    .build());
    base = server.baseUrl();
  }

  @AfterEach
  void stop() {
    server.stop();
    store.close();
    db.drop().run();
  }

  private JsonNode call(String method, String path, String body) throws Exception {
    return PlainHttp.call(base, method, path, body);
  }

  @Test
  void activitiesRunByAPlainHttpConsumer_oneFailedDeliveryRetried_instanceCompletes()
      throws Exception {
    String id = TestServers.unique("checkout");
    JsonNode started =
        call(
            "POST",
            "/v1/workflows",
            "{\"name\":\"Checkout\",\"id\":\""
                + id
                + "\",\"input\":{\"order\":\"o-17\",\"amount\":42}}");
    assertThat(started.get("created").asBoolean()).isTrue();

    List<String> deliveries = new ArrayList<>();
    boolean chargeFailedOnce = false;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String status = started.get("status").asText();
    while (!status.equals("COMPLETED") && System.nanoTime() < deadline) {
      JsonNode leased =
          call(
              "POST",
              "/v1/queues/wf.activities/lease",
              "{\"worker\":\"plain-http\",\"max\":1,\"wait\":\"1s\"}");
      for (JsonNode m : leased.get("messages")) {
        String type = m.get("type").asText();
        JsonNode order = m.get("payload");
        String token = m.get("token").asText();
        deliveries.add(type);
        assertThat(order.get("order").asText()).isEqualTo("o-17");
        if (type.equals("Charge") && !chargeFailedOnce) {
          chargeFailedOnce = true;
          call(
              "POST",
              "/v1/leases/" + token + "/fail",
              "{\"reason\":\"HANDLER_EXCEPTION\",\"message\":\"card network timeout\"}");
        } else if (type.equals("Charge")) {
          call(
              "POST",
              "/v1/leases/" + token + "/complete",
              "{\"result\":{\"receipt\":\"r-" + order.get("amount").asInt() + "\"}}");
        } else {
          assertThat(type).isEqualTo("Ship");
          call(
              "POST",
              "/v1/leases/" + token + "/complete",
              "{\"result\":{\"tracking\":\"T-" + order.get("order").asText() + "\"}}");
        }
      }
      status = call("GET", "/v1/workflows/" + id, null).get("status").asText();
    }

    JsonNode done = call("GET", "/v1/workflows/" + id + "?wait=5s", null);
    assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("COMPLETED");
    assertThat(done.get("output"))
        .isEqualTo(JSON.readTree("{\"receipt\":\"r-42\",\"tracking\":\"T-o-17\"}"));
    assertThat(done.get("failure").isNull()).isTrue();
    assertThat(deliveries).containsExactly("Charge", "Charge", "Ship");

    List<String> lines = new ArrayList<>();
    JsonNode failedDelivery = null;
    for (JsonNode e : call("GET", "/v1/workflows/" + id + "/timeline", null).get("entries")) {
      String kindName = e.get("kind").asText();
      lines.add(
          kindName
              + " "
              + (kindName.equals("EVENT") ? e.get("event").asText() : e.get("outcome").asText())
              + " "
              + e.get("name").asText());
      if (kindName.equals("ACTIVITY_ATTEMPT") && e.get("outcome").asText().equals("FAILED")) {
        failedDelivery = e;
      }
    }
    assertThat(lines)
        .containsSubsequence(
            "ACTIVITY_ATTEMPT FAILED Charge",
            "ACTIVITY_ATTEMPT COMPLETED Charge",
            "EVENT ACTIVITY_COMPLETED Charge",
            "ACTIVITY_ATTEMPT COMPLETED Ship",
            "EVENT ACTIVITY_COMPLETED Ship",
            "EVENT ORCHESTRATION_COMPLETED null");
    assertThat(failedDelivery).as(lines.toString()).isNotNull();
    assertThat(failedDelivery.get("node").asText()).isEqualTo("plain-http");
    assertThat(failedDelivery.get("reason").asText()).isEqualTo("HANDLER_EXCEPTION");
    assertThat(failedDelivery.get("message").asText()).isEqualTo("card network timeout");
    JsonNode queue = call("GET", "/v1/queues/wf.activities/stats", null);
    assertThat(queue.get("total").asInt()).isZero();
  }
}
