package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The payload text is cut out of the lease answer exactly as the server wrote it. */
class RawPayloadTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"amount\":1.10,\"n\":1e2,\"big\":12345678901234567890123}",
        "[1.10, {\"a\": [true, null]}, \"x\"]",
        "1.10",
        "1e2",
        "-0.0",
        "\"a \\\"quoted\\\" text \\u00e9\"",
        "true",
        "{ \"spaced\" : [ 1 , 2 ] }"
      })
  void first_payloadOfAnyShape_isCutOutVerbatim(String payload) {
    String answer =
        "{\"messages\":[{\"token\":\"t.1\",\"id\":\"i\",\"headers\":{\"h\":\"}\"},\"payload\":"
            + payload
            + ",\"attempt\":1}],\"poisoned\":[],\"expired\":[]}";

    assertThat(RawPayload.first(answer)).isEqualTo(payload);
  }

  @Test
  void first_messagesAfterOtherFields_andPayloadLast() {
    String answer =
        "{\"poisoned\":[\"x\"],\"meta\":{\"messages\":[]},\"messages\":[{\"payload\":{\"n\":1.50}}]}";

    assertThat(RawPayload.first(answer)).isEqualTo("{\"n\":1.50}");
  }

  @Test
  void first_nullOrMissingPayloadOrNoMessages_isEmpty() {
    assertThat(RawPayload.first("{\"messages\":[{\"payload\":null}]}")).isEmpty();
    assertThat(RawPayload.first("{\"messages\":[{\"id\":\"i\"}]}")).isEmpty();
    assertThat(RawPayload.first("{\"messages\":[]}")).isEmpty();
    assertThat(RawPayload.first("[]")).isEmpty();
  }

  @Test
  void first_notJson_isRefused() {
    assertThatThrownBy(() -> RawPayload.first("{\"messages\":[{\"payload\": nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the lease answer is not JSON");
  }
}
