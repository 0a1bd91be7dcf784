package io.redrive.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class FingerprintTest {
  private static final Instant T = Instant.parse("2024-05-01T10:00:00Z");

  private static final String TRACE =
      """
      java.lang.IllegalStateException: order 42 failed
      \tat com.shop.orders.OrderHandler.charge(OrderHandler.java:88)
      \tat com.shop.orders.OrderHandler.handle(OrderHandler.java:31)
      \tat io.redrive.worker.Run.call(Run.java:12)
      \tat java.base/java.lang.Thread.run(Thread.java:833)
      """;

  private static FailureRecord failure(FailureReason reason, String message, String trace) {
    return new FailureRecord(reason, message, true, 1, 5, "w1", T, trace, null);
  }

  private static Fingerprint handlerDeath(String message, String trace) {
    return Fingerprint.of(
        FailureReason.HANDLER_EXCEPTION,
        "charge",
        failure(FailureReason.HANDLER_EXCEPTION, message, trace));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "order 42 failed|order <n> failed",
        "balance -12.50 below 0|balance <n> below <n>",
        "retry 3 of 5.|retry <n> of <n>.",
        "timed out after 30s (limit 1500ms, 99%)|timed out after <n>s (limit <n>ms, <n>%)",
        "connect 10.0.0.12:5432 refused|connect <n> refused",
        "message 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b not found|message <uuid> not found",
        "pointer 0x7ffe12ab invalid|pointer <hex> invalid",
        "digest 9f86d081884c7d65 differs|digest <hex> differs",
        "job 01ARZ3NDEKTSV4RRFFQ69G5FAV gone|job <id> gone",
        "customer cus9X8y7Z6 blocked|customer <id> blocked",
        "user 'alice@example.com' unknown|user <str> unknown",
        "key \"k-17\" missing|key <str> missing",
        "column `total_2` null|column <str> null",
      })
  void normalise_variableParts_becomePlaceholders(String message, String pattern) {
    assertThat(Fingerprint.normalise(message)).isEqualTo(pattern);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "api v2 rejected utf8 payload signed with sha256",
        "java.lang.IllegalStateException: Http2Exception in Base64Decoder",
        "Can't parse: don't know it's type!",
        "HTTP Error: Service Unavailable (upstream)",
        "x86 and ARM64 differ",
      })
  void normalise_wordsCaseAndShortMixedTokens_keptAsIs(String message) {
    assertThat(Fingerprint.normalise(message)).isEqualTo(message);
  }

  @Test
  void poisonAfterCrashes_onDifferentWorkers_isOneGroup() {
    Fingerprint onW1 =
        Fingerprint.of(
            FailureReason.POISON,
            "charge",
            failure(
                FailureReason.LEASE_EXPIRED,
                "lease expired: worker w1 did not settle within its lease (crash, kill or hang)",
                null));
    Fingerprint onBilling7 =
        Fingerprint.of(
            FailureReason.POISON,
            "charge",
            failure(
                FailureReason.LEASE_EXPIRED,
                "lease expired: worker billing-7 did not settle within its lease (crash, kill or"
                    + " hang)",
                null));
    assertThat(onW1.key()).isEqualTo(onBilling7.key());
    assertThat(onW1.pattern()).isNull();
    assertThat(onW1.causeReason()).isEqualTo(FailureReason.LEASE_EXPIRED);
  }

  @Test
  void normalise_whitespace_collapsedAndTrimmed() {
    assertThat(Fingerprint.normalise("  many\t spaces\n here ")).isEqualTo("many spaces here");
  }

  @Test
  void normalise_nullAndBlank_giveNullAndEmpty() {
    assertThat(Fingerprint.normalise(null)).isNull();
    assertThat(Fingerprint.normalise("   ")).isEmpty();
  }

  @Test
  void of_javaTrace_givesClassPatternAndTopThreeFrames() {
    Fingerprint f = handlerDeath("order 42 failed", TRACE);

    assertThat(f.reason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(f.type()).isEqualTo("charge");
    assertThat(f.causeReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(f.exceptionClass()).isEqualTo("java.lang.IllegalStateException");
    assertThat(f.pattern()).isEqualTo("order <n> failed");
    assertThat(f.frames())
        .containsExactly(
            "com.shop.orders.OrderHandler.charge",
            "com.shop.orders.OrderHandler.handle",
            "io.redrive.worker.Run.call");
    assertThat(f.key()).matches("[0-9a-f]{16}");
  }

  @Test
  void of_sameCauseDifferentNumbers_sameKey() {
    Fingerprint a = handlerDeath("order 42 failed", TRACE);
    Fingerprint b =
        handlerDeath(
            "order 7 failed",
            TRACE.replace("order 42", "order 7").replace(":88)", ":90)").replace(":833)", ":840)"));

    assertThat(b.key()).isEqualTo(a.key());
  }

  @Test
  void of_differentFrame_differentKey() {
    Fingerprint a = handlerDeath("order 42 failed", TRACE);
    Fingerprint b =
        handlerDeath(
            "order 42 failed", TRACE.replace("OrderHandler.charge", "OrderHandler.refund"));

    assertThat(b.key()).isNotEqualTo(a.key());
  }

  @Test
  void of_differentExceptionClassOrMessageOrTypeOrReason_differentKey() {
    Fingerprint a = handlerDeath("order 42 failed", TRACE);

    assertThat(
            handlerDeath(
                    "order 42 failed",
                    TRACE.replace("IllegalStateException", "IllegalArgumentException"))
                .key())
        .isNotEqualTo(a.key());
    assertThat(handlerDeath("order 42 lost", TRACE).key()).isNotEqualTo(a.key());
    assertThat(
            Fingerprint.of(
                    FailureReason.HANDLER_EXCEPTION,
                    "refund",
                    failure(FailureReason.HANDLER_EXCEPTION, "order 42 failed", TRACE))
                .key())
        .isNotEqualTo(a.key());
    assertThat(
            Fingerprint.of(
                    FailureReason.POISON,
                    "charge",
                    failure(FailureReason.HANDLER_EXCEPTION, "order 42 failed", TRACE))
                .key())
        .isNotEqualTo(a.key());
  }

  @Test
  void of_javaFrames_dropModulePrefixAndLambdaNumbers() {
    String trace =
        """
        java.lang.RuntimeException: x
        \tat app//com.a.B$$Lambda$14/0x0000000800c0b448.apply(Unknown Source)
        \tat java.base@17.0.2/java.util.Optional.map(Optional.java:260)
        \tat com.a.B$1.run(B.java:3)
        """;

    assertThat(Fingerprint.frames(trace))
        .containsExactly("com.a.B$$Lambda.apply", "java.util.Optional.map", "com.a.B$1.run");
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"  \n  "})
  void of_noStackTrace_givesNoClassAndNoFrames(String trace) {
    Fingerprint f = handlerDeath(null, trace);

    assertThat(f.exceptionClass()).isNull();
    assertThat(f.frames()).isEmpty();
    assertThat(f.pattern()).isNull();
    assertThat(f.key()).matches("[0-9a-f]{16}");
    assertThat(handlerDeath(null, trace).key()).isEqualTo(f.key());
  }

  @Test
  void of_noCause_keysByReasonAndType() {
    Fingerprint f = Fingerprint.of(FailureReason.UNKNOWN, "charge", (FailureRecord) null);

    assertThat(f.causeReason()).isNull();
    assertThat(f.exceptionClass()).isNull();
    assertThat(f.pattern()).isNull();
    assertThat(f.frames()).isEmpty();
    assertThat(Fingerprint.of(FailureReason.UNKNOWN, "charge", (FailureRecord) null).key())
        .isEqualTo(f.key());
    assertThat(Fingerprint.of(FailureReason.UNKNOWN, "refund", (FailureRecord) null).key())
        .isNotEqualTo(f.key());
  }

  @Test
  void of_firstLineNotAClassName_givesNoExceptionClass() {
    assertThat(Fingerprint.exceptionClass("something went wrong: badly")).isNull();
    assertThat(Fingerprint.exceptionClass("TypeError: x is undefined")).isEqualTo("TypeError");
    assertThat(Fingerprint.exceptionClass("com.a.Failure$Inner")).isEqualTo("com.a.Failure$Inner");
  }

  @Test
  void of_pythonTraceback_readsClassFromLastLineAndFileFrames() {
    String trace =
        """
        Traceback (most recent call last):
          File "/app/worker.py", line 41, in handle
            charge(order)
          File "/app/billing.py", line 12, in charge
            raise ValueError(f"bad amount {amount}")
        ValueError: bad amount 12
        """;

    assertThat(Fingerprint.exceptionClass(trace)).isEqualTo("ValueError");
    assertThat(Fingerprint.frames(trace))
        .containsExactly(
            "File \"/app/worker.py\", line <n>, in handle",
            "File \"/app/billing.py\", line <n>, in charge");
  }

  @Test
  void of_nodeTrace_firstThreeFramesWithNumbersNormalised() {
    String trace =
        """
        TypeError: Cannot read properties of undefined (reading 'id')
            at charge (/app/billing.js:12:7)
            at handle (/app/worker.js:40:3)
            at process (/app/loop.js:8:11)
            at main (/app/index.js:2:1)
        """;
    String moved = trace.replace(":12:7", ":13:9");

    assertThat(Fingerprint.exceptionClass(trace)).isEqualTo("TypeError");
    assertThat(Fingerprint.frames(trace))
        .containsExactly(
            "at charge (/app/billing.js:<n>:<n>)",
            "at handle (/app/worker.js:<n>:<n>)",
            "at process (/app/loop.js:<n>:<n>)");
    assertThat(Fingerprint.frames(moved)).isEqualTo(Fingerprint.frames(trace));
  }

  @Test
  void of_goPanic_framesWithHexNormalised() {
    String trace =
        """
        panic: runtime error: index out of range [5] with length 3

        goroutine 1 [running]:
        main.handle(0xc000012345)
        \t/app/main.go:12 +0x1d
        main.main()
        """;

    assertThat(Fingerprint.frames(trace))
        .containsExactly("main.handle(<hex>)", "/app/main.go:<n> +<hex>");
  }

  @Test
  void causeOf_skipsPoisonAndExpiredBookkeeping() {
    FailureRecord thrown = failure(FailureReason.HANDLER_EXCEPTION, "boom", TRACE);
    FailureRecord poison = failure(FailureReason.POISON, "poison: ...", null);
    List<HistoryEntry> history =
        List.of(
            new HistoryEntry(1, Outcome.FAILED, "w1", T, T, thrown, null),
            new HistoryEntry(2, Outcome.ABANDONED, "w1", T, T, null, null),
            new HistoryEntry(3, Outcome.POISONED, null, null, T, poison, null));

    assertThat(Fingerprint.causeOf(history)).isSameAs(thrown);
    assertThat(Fingerprint.of(FailureReason.POISON, "charge", history).causeReason())
        .isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(Fingerprint.causeOf(List.of(history.get(2)))).isNull();
  }

  @Test
  void requireKey_rejectsAnythingButSixteenLowerHex() {
    assertThat(Fingerprint.requireKey("fingerprint", "0123456789abcdef"))
        .isEqualTo("0123456789abcdef");
    assertThatThrownBy(() -> Fingerprint.requireKey("fingerprint", "0123456789ABCDEF"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fingerprint: invalid fingerprint \"0123456789ABCDEF\"");
    assertThatThrownBy(() -> Fingerprint.requireKey("fingerprint", "abc"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
