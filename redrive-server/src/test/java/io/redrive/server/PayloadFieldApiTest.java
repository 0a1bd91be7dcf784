package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.server.HttpApiClient.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code GET /v1/queues/{name}/messages?field=&value=} on both stores: finds by a nested payload
 * field, skips text payloads without failing, and refuses a bad path, a lone field or value, and a
 * NUL character with a 400 naming the parameter.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class PayloadFieldApiTest extends ApiTestBase {

  private List<String> ids(Response r) {
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    List<String> out = new ArrayList<>();
    r.get("messages").forEach(m -> out.add(m.get("id").asText()));
    return out;
  }

  @Test
  void aNestedField_findsItsMessages_andATextPayloadIsSkipped() {
    String q = queue("by-field");
    List<String> ids =
        enqueue(
            q,
            "ship",
            Map.of("order", Map.of("id", 42)),
            Map.of("order", Map.of("id", 43)),
            "order.id=42, not JSON",
            Map.of("order", Map.of("id", "42")));
    String other = queue("by-field-other");
    enqueue(other, "ship", Map.of("order", Map.of("id", 42)));

    assertThat(ids(api.get("/v1/queues/" + q + "/messages?field=order.id&value=42")))
        .containsExactly(ids.get(0), ids.get(3));
    assertThat(ids(api.get("/v1/queues/" + q + "/messages?field=order.id&value=42&limit=1")))
        .containsExactly(ids.get(0));
    assertThat(ids(api.get("/v1/queues/" + q + "/messages?field=order.id&value=44"))).isEmpty();
  }

  @Test
  void badInput_is400_namingTheParameter() {
    String q = queue("by-field-bad");
    String list = "/v1/queues/" + q + "/messages";
    for (String bad : List.of("order..id", "order%20id", "%24.order", "a.b.c.d.e.f.g.h.i")) {
      Response r = api.get(list + "?field=" + bad + "&value=1");
      assertError(r, 400, "INVALID_REQUEST");
      assertThat(r.json().path("error").path("message").asText()).startsWith("field: ");
    }
    Response lone = api.get(list + "?field=order.id");
    assertError(lone, 400, "INVALID_REQUEST");
    assertThat(lone.json().path("error").path("message").asText()).startsWith("value: ");
    Response noField = api.get(list + "?value=42");
    assertError(noField, 400, "INVALID_REQUEST");
    assertThat(noField.json().path("error").path("message").asText()).startsWith("field: ");
    Response nul = api.get(list + "?field=order.id&value=4%002");
    assertError(nul, 400, "INVALID_REQUEST");
    assertThat(nul.json().path("error").path("message").asText())
        .startsWith("value: must not contain the NUL character");
    Response nulField = api.get(list + "?field=order%00.id&value=42");
    assertError(nulField, 400, "INVALID_REQUEST");
    assertThat(nulField.json().path("error").path("message").asText()).startsWith("field: ");
  }
}
