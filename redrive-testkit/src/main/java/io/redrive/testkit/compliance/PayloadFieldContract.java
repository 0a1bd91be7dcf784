package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Listing a queue's messages by a field of their JSON payload ({@link
 * io.redrive.message.PayloadField}): nested fields, a number matched by its text, strings,
 * booleans, names with '-' and digits; a missing field, a null, an object, an array element and a
 * payload that is not JSON never match and never fail the query; other queues' messages stay out;
 * paging keeps working; bad paths and NUL characters are refused naming the field.
 */
public abstract class PayloadFieldContract extends ComplianceTestBase {

  private String put(String queue, String payload) {
    return enqueue(NewMessage.builder(queue, TYPE).payload(payload).build());
  }

  private List<String> find(String path, String value) {
    return redrive
        .listMessages(MessageQuery.all(QUEUE).withPayloadField(path, value))
        .messages()
        .stream()
        .map(Message::id)
        .toList();
  }

  @Test
  void payloadField_nestedNumberAndString_matchByText_andNothingElse() {
    createQueue(QUEUE);
    createQueue(OTHER);
    String number = put(QUEUE, "{\"order\":{\"id\":42},\"customer\":\"ada\"}");
    String text = put(QUEUE, "{\"order\":{\"id\":\"42\"},\"customer\":\"bob\"}");
    String otherId = put(QUEUE, "{\"order\":{\"id\":43},\"customer\":\"ada\"}");
    put(QUEUE, "{\"order\":{\"id\":420}}");
    put(QUEUE, "{\"order\":42}");
    String noOrder = put(QUEUE, "{\"customer\":\"ada\"}");
    put(QUEUE, "{\"order\":{\"id\":null}}");
    put(QUEUE, "{\"order\":{\"id\":{\"value\":42}}}");
    put(QUEUE, "not json: order.id = 42");
    put(QUEUE, "{\"order\": {\"id\": 42");
    put(QUEUE, "[{\"order\":{\"id\":42}}]");
    put(QUEUE, "42");
    put(OTHER, "{\"order\":{\"id\":42}}");

    assertThat(find("order.id", "42")).containsExactly(number, text);
    assertThat(find("order.id", "43")).containsExactly(otherId);
    assertThat(find("customer", "ada")).containsExactly(number, otherId, noOrder);
    assertThat(find("customer", "Ada")).as("text compares exactly").isEmpty();
    assertThat(find("order.id", "4")).as("no partial match").isEmpty();
    assertThat(find("missing.field", "42")).isEmpty();
    assertThat(find("order.id.value", "42"))
        .as("a nested object is reached by its path")
        .hasSize(1);
  }

  @Test
  void payloadField_booleansDashesDigitsAndArrays_followOneRule() {
    createQueue(QUEUE);
    String yes = put(QUEUE, "{\"paid\":true,\"ship-to\":{\"2024\":\"x\"},\"items\":[\"a\"]}");
    String no = put(QUEUE, "{\"paid\":false,\"items\":{\"0\":\"a\"}}");
    String empty = put(QUEUE, "{\"paid\":\"\"}");

    assertThat(find("paid", "true")).containsExactly(yes);
    assertThat(find("paid", "false")).containsExactly(no);
    assertThat(find("paid", "1")).as("a boolean is not a number").isEmpty();
    assertThat(find("paid", "")).containsExactly(empty);
    assertThat(find("ship-to.2024", "x")).containsExactly(yes);
    assertThat(find("items.0", "a"))
        .as("a name of digits reads an object's member, never an array's element")
        .containsExactly(no);
  }

  @Test
  void payloadField_pagesWalkEveryMatchOnceInEnqueueOrder() {
    createQueue(QUEUE);
    List<String> matches = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      matches.add(put(QUEUE, "{\"tenant\":\"t1\",\"n\":" + i + "}"));
      put(QUEUE, "{\"tenant\":\"t2\",\"n\":" + i + "}");
    }
    List<String> seen = new ArrayList<>();
    MessageQuery q = MessageQuery.all(QUEUE).withPayloadField("tenant", "t1").withLimit(3);
    MessagePage page = redrive.listMessages(q);
    seen.addAll(page.messages().stream().map(Message::id).toList());
    while (page.next() != null) {
      page = redrive.listMessages(q.withAfter(page.next()));
      seen.addAll(page.messages().stream().map(Message::id).toList());
    }
    assertThat(seen).containsExactlyElementsOf(matches);
  }

  @Test
  void payloadField_badPathOrNul_isRefusedNamingTheField() {
    createQueue(QUEUE);
    put(QUEUE, PAYLOAD);
    for (String bad :
        List.of(
            "",
            "order..id",
            ".order",
            "order.",
            "order id",
            "order['id']",
            "$.order",
            "a".repeat(65),
            "a.b.c.d.e.f.g.h.i")) {
      assertThatThrownBy(() -> find(bad, "42"))
          .as("path \"%s\"", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("field: ");
    }
    assertThatThrownBy(() -> find("order\0.id", "42"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("field: must not contain the NUL character");
    assertThatThrownBy(() -> find("to", "ada\0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("value: must not contain the NUL character");
    assertThatThrownBy(() -> find("to", "x".repeat(501)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("value: ");
    assertThat(find("to", "ada@example.com")).hasSize(1);
  }
}
