package io.redrive.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link Fingerprint#ofText}: the dead-letter rules over failures that are not dead messages. */
class FingerprintTextTest {
  private static final String TRACE =
      "java.lang.IllegalStateException: order 123456 refused\n"
          + "\tat com.shop.Orders.charge(Orders.java:42)\n"
          + "\tat com.shop.Orders.run(Orders.java:12)\n"
          + "\tat com.shop.Main.main(Main.java:3)\n"
          + "\tat com.shop.Never.counted(Never.java:1)\n";

  @Test
  void sameCause_withOtherNumbersAndIds_sameKey() {
    Fingerprint.Text a =
        Fingerprint.ofText(
            "workflow", "POISON", null, "FAILED", null, "order 123456 refused", TRACE);
    Fingerprint.Text b =
        Fingerprint.ofText(
            "workflow",
            "POISON",
            null,
            "FAILED",
            null,
            "order 987 refused",
            TRACE.replace("42", "43").replace("123456", "77"));
    assertThat(a.key()).isEqualTo(b.key()).matches("[0-9a-f]{16}");
    assertThat(a.exceptionClass()).isEqualTo("java.lang.IllegalStateException");
    assertThat(a.pattern()).isEqualTo("order <n> refused");
    assertThat(a.frames())
        .containsExactly("com.shop.Orders.charge", "com.shop.Orders.run", "com.shop.Main.main");
    assertThat(Fingerprint.requireKey("key", a.key())).isEqualTo(a.key());
  }

  @Test
  void anotherException_reason_type_orKind_anotherKey() {
    String key = Fingerprint.ofText("workflow", "POISON", null, null, "E", "m", null).key();
    assertThat(Fingerprint.ofText("workflow", "POISON", null, null, "F", "m", null).key())
        .isNotEqualTo(key);
    assertThat(Fingerprint.ofText("workflow", "NONDETERMINISM", null, null, "E", "m", null).key())
        .isNotEqualTo(key);
    assertThat(Fingerprint.ofText("workflow", "POISON", "Charge", null, "E", "m", null).key())
        .isNotEqualTo(key);
    assertThat(Fingerprint.ofText("other", "POISON", null, null, "E", "m", null).key())
        .isNotEqualTo(key);
  }

  @Test
  void aKindIsRequired() {
    assertThatThrownBy(() -> Fingerprint.ofText(" ", null, null, null, null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kind");
  }
}
