package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private static final WorkflowFailure THREW =
      WorkflowFailure.application(
          "HANDLER_EXCEPTION", "boom", "com.example.pay.GatewayException", null, true);

  private static WorkflowFailure failure(
      String reason, String type, boolean retryable, Long retryAfterMs) {
    return new WorkflowFailure(
        reason,
        "application",
        "boom",
        type,
        null,
        retryable,
        retryAfterMs,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        List.of(),
        null,
        null,
        null);
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  @Test
  void none_anyFailure_noRetry() {
    assertThat(RetryPolicy.none().nextDelay(0, THREW, Duration.ZERO)).isEmpty();
    assertThat(RetryPolicy.none().maxAttempts()).isEqualTo(1);
  }

  @Test
  void exponential_eachRetry_multipliesTheDelay() {
    RetryPolicy p = RetryPolicy.exponential(5, ms(100), 2.0, Duration.ofMinutes(1));

    assertThat(p.nextDelay(0, THREW, Duration.ZERO)).contains(ms(100));
    assertThat(p.nextDelay(1, THREW, Duration.ZERO)).contains(ms(200));
    assertThat(p.nextDelay(2, THREW, Duration.ZERO)).contains(ms(400));
    assertThat(p.nextDelay(3, THREW, Duration.ZERO)).contains(ms(800));
  }

  @Test
  void exponential_pastMax_isCappedAtMax() {
    RetryPolicy p = RetryPolicy.exponential(50, Duration.ofSeconds(1), 3.0, Duration.ofSeconds(10));

    assertThat(p.nextDelay(2, THREW, Duration.ZERO)).contains(Duration.ofSeconds(9));
    assertThat(p.nextDelay(3, THREW, Duration.ZERO)).contains(Duration.ofSeconds(10));
    // 3^47 overflows a long of nanoseconds: still the cap, no ArithmeticException.
    assertThat(p.nextDelay(48, THREW, Duration.ZERO)).contains(Duration.ofSeconds(10));
  }

  @Test
  void exponential_fractionalMultiplier_roundsToTheNanosecond() {
    RetryPolicy p = RetryPolicy.exponential(4, ms(100), 1.5, Duration.ofMinutes(1));

    assertThat(p.nextDelay(1, THREW, Duration.ZERO)).contains(ms(150));
    assertThat(p.nextDelay(2, THREW, Duration.ZERO)).contains(ms(225));
  }

  @Test
  void exponential_maxAttemptsThree_retriesTwiceThenStops() {
    RetryPolicy p = RetryPolicy.exponential(3, ms(100), 2.0, Duration.ofSeconds(1));

    assertThat(p.nextDelay(0, THREW, Duration.ZERO)).isPresent();
    assertThat(p.nextDelay(1, THREW, Duration.ZERO)).isPresent();
    assertThat(p.nextDelay(2, THREW, Duration.ZERO)).isEmpty();
    assertThat(p.nextDelay(7, THREW, Duration.ZERO)).isEmpty();
  }

  @Test
  void fixed_eachRetry_sameDelayUntilTriesRunOut() {
    RetryPolicy p = RetryPolicy.fixed(3, Duration.ofSeconds(5));

    assertThat(p.nextDelay(0, THREW, Duration.ZERO)).contains(Duration.ofSeconds(5));
    assertThat(p.nextDelay(1, THREW, Duration.ZERO)).contains(Duration.ofSeconds(5));
    assertThat(p.nextDelay(2, THREW, Duration.ZERO)).isEmpty();
  }

  @Test
  void fixed_maxAttemptsOne_neverRetries() {
    assertThat(RetryPolicy.fixed(1, ms(10)).nextDelay(0, THREW, Duration.ZERO)).isEmpty();
  }

  @Test
  void nextDelay_notRetryable_noRetry() {
    WorkflowFailure failure = failure("VALIDATION_FAILURE", null, false, null);

    assertThat(RetryPolicy.fixed(5, ms(10)).nextDelay(0, failure, Duration.ZERO)).isEmpty();
  }

  @Test
  void nextDelay_systemFailureEvenIfMarkedRetryable_noRetry() {
    RetryPolicy p = RetryPolicy.fixed(5, ms(10));

    assertThat(p.nextDelay(0, failure(WorkflowFailure.POISON, null, true, null), Duration.ZERO))
        .isEmpty();
    assertThat(
            p.nextDelay(
                0, failure(WorkflowFailure.NONDETERMINISM, null, true, null), Duration.ZERO))
        .isEmpty();
    assertThat(
            p.nextDelay(
                0,
                WorkflowFailure.poisonedActivity("order-1", 1, "charge", 3, 11, 10, "{}", null),
                Duration.ZERO))
        .isEmpty();
  }

  @Test
  void doNotRetry_matchingReason_noRetry() {
    RetryPolicy p = RetryPolicy.fixed(5, ms(10)).doNotRetry("CARD_DECLINED");

    assertThat(p.nextDelay(0, failure("CARD_DECLINED", null, true, null), Duration.ZERO)).isEmpty();
    assertThat(p.nextDelay(0, failure("HANDLER_EXCEPTION", null, true, null), Duration.ZERO))
        .contains(ms(10));
  }

  @Test
  void doNotRetry_fullyQualifiedType_noRetry() {
    RetryPolicy p = RetryPolicy.fixed(5, ms(10)).doNotRetry("com.example.pay.GatewayException");

    assertThat(p.nextDelay(0, THREW, Duration.ZERO)).isEmpty();
  }

  @Test
  void doNotRetry_simpleTypeName_noRetry() {
    RetryPolicy p = RetryPolicy.fixed(5, ms(10)).doNotRetry("GatewayException");

    assertThat(p.nextDelay(0, THREW, Duration.ZERO)).isEmpty();
  }

  @Test
  void doNotRetry_nestedClassBinaryName_matchesOuterDollarInnerAndInner() {
    WorkflowFailure nested =
        failure("HANDLER_EXCEPTION", "com.example.Billing$Declined", true, null);

    assertThat(
            RetryPolicy.fixed(5, ms(10))
                .doNotRetry("Billing$Declined")
                .nextDelay(0, nested, Duration.ZERO))
        .isEmpty();
    assertThat(
            RetryPolicy.fixed(5, ms(10)).doNotRetry("Declined").nextDelay(0, nested, Duration.ZERO))
        .isEmpty();
  }

  @Test
  void doNotRetry_otherTypeOrPartialName_stillRetries() {
    RetryPolicy p =
        RetryPolicy.fixed(5, ms(10))
            .doNotRetry("Gateway", "pay.GatewayException", "gatewayexception");

    assertThat(p.nextDelay(0, THREW, Duration.ZERO)).contains(ms(10));
  }

  @Test
  void doNotRetry_calledTwice_keepsBothEntriesAndLeavesOriginalUnchanged() {
    RetryPolicy base = RetryPolicy.fixed(5, ms(10));
    RetryPolicy both = base.doNotRetry("A").doNotRetry("GatewayException");

    assertThat(both.nextDelay(0, failure("A", null, true, null), Duration.ZERO)).isEmpty();
    assertThat(both.nextDelay(0, THREW, Duration.ZERO)).isEmpty();
    assertThat(base.nextDelay(0, THREW, Duration.ZERO)).contains(ms(10));
  }

  @Test
  void doNotRetry_blankEntry_isRejected() {
    assertThatThrownBy(() -> RetryPolicy.none().doNotRetry("A", " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("doNotRetry: entries must not be blank, was \"\"");
    assertThatThrownBy(() -> RetryPolicy.none().doNotRetry("A", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("doNotRetry: entries must not be blank, was null");
  }

  @Test
  void retryAfterMs_longerThanDelay_isUsed() {
    RetryPolicy p = RetryPolicy.fixed(3, Duration.ofSeconds(1));

    assertThat(p.nextDelay(0, failure("RATE_LIMITED", null, true, 30_000L), Duration.ZERO))
        .contains(Duration.ofSeconds(30));
  }

  @Test
  void retryAfterMs_shorterThanDelay_isIgnored() {
    RetryPolicy p = RetryPolicy.fixed(3, Duration.ofSeconds(1));

    assertThat(p.nextDelay(0, failure("RATE_LIMITED", null, true, 500L), Duration.ZERO))
        .contains(Duration.ofSeconds(1));
  }

  @Test
  void totalTimeout_retryWouldStartPastIt_noRetry() {
    RetryPolicy p =
        RetryPolicy.fixed(10, Duration.ofSeconds(10)).totalTimeout(Duration.ofMinutes(1));

    assertThat(p.nextDelay(3, THREW, Duration.ofSeconds(50))).contains(Duration.ofSeconds(10));
    assertThat(p.nextDelay(4, THREW, Duration.ofSeconds(51))).isEmpty();
  }

  @Test
  void totalTimeout_retryAfterPushesPastIt_noRetry() {
    RetryPolicy p =
        RetryPolicy.fixed(10, Duration.ofSeconds(1)).totalTimeout(Duration.ofMinutes(1));

    assertThat(p.nextDelay(0, failure("RATE_LIMITED", null, true, 61_000L), Duration.ZERO))
        .isEmpty();
    assertThat(p.nextDelay(0, failure("RATE_LIMITED", null, true, 60_000L), Duration.ZERO))
        .contains(Duration.ofMinutes(1));
  }

  @Test
  void exponential_maxAttemptsZero_isRejectedNamingIt() {
    assertThatThrownBy(() -> RetryPolicy.exponential(0, ms(1), 2.0, ms(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxAttempts: must be at least 1, was 0");
  }

  @Test
  void exponential_nonPositiveFirst_isRejectedNamingIt() {
    assertThatThrownBy(() -> RetryPolicy.exponential(3, Duration.ZERO, 2.0, ms(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("first: must be positive, was PT0S");
    assertThatThrownBy(() -> RetryPolicy.exponential(3, null, 2.0, ms(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("first: must be positive, was null");
  }

  @Test
  void exponential_multiplierBelowOneOrNaN_isRejectedNamingIt() {
    assertThatThrownBy(() -> RetryPolicy.exponential(3, ms(1), 0.5, ms(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("multiplier: must be a finite number of at least 1.0, was 0.5");
    assertThatThrownBy(() -> RetryPolicy.exponential(3, ms(1), Double.NaN, ms(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("multiplier:");
    assertThatThrownBy(() -> RetryPolicy.exponential(3, ms(1), Double.POSITIVE_INFINITY, ms(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("multiplier:");
  }

  @Test
  void exponential_maxBelowFirst_isRejectedNamingBoth() {
    assertThatThrownBy(() -> RetryPolicy.exponential(3, Duration.ofSeconds(10), 2.0, ms(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("max: must be at least first (PT10S), was PT0.01S");
  }

  @Test
  void fixed_negativeDelay_isRejectedNamingIt() {
    assertThatThrownBy(() -> RetryPolicy.fixed(3, ms(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("delay: must be positive, was PT-0.001S");
  }

  @Test
  void totalTimeout_zero_isRejectedNamingIt() {
    assertThatThrownBy(() -> RetryPolicy.fixed(3, ms(1)).totalTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("totalTimeout: must be positive, was PT0S");
  }

  @Test
  void nextDelay_badArguments_areRejected() {
    RetryPolicy p = RetryPolicy.fixed(3, ms(1));

    assertThatThrownBy(() -> p.nextDelay(-1, THREW, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retryNumber: must not be negative, was -1");
    assertThatThrownBy(() -> p.nextDelay(0, null, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failure: is required, was null");
    assertThatThrownBy(() -> p.nextDelay(0, THREW, ms(-5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sinceFirstCall: must not be negative, was PT-0.005S");
  }

  @Test
  void equals_sameSettings_equalAndDifferentSettings_not() {
    RetryPolicy a =
        RetryPolicy.exponential(3, ms(100), 2.0, Duration.ofSeconds(1))
            .doNotRetry("X")
            .totalTimeout(Duration.ofMinutes(1));
    RetryPolicy b =
        RetryPolicy.exponential(3, ms(100), 2.0, Duration.ofSeconds(1))
            .doNotRetry("X")
            .totalTimeout(Duration.ofMinutes(1));

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(b.totalTimeout(Duration.ofMinutes(2)));
    assertThat(a).isNotEqualTo(b.doNotRetry("Y"));
    assertThat(RetryPolicy.fixed(3, ms(100)))
        .isNotEqualTo(RetryPolicy.exponential(3, ms(100), 1.0, ms(100)));
    assertThat(RetryPolicy.none()).isEqualTo(RetryPolicy.none());
  }

  @Test
  void toString_showsEverySetting() {
    assertThat(RetryPolicy.none()).hasToString("RetryPolicy[none]");
    assertThat(RetryPolicy.fixed(2, Duration.ofSeconds(5)))
        .hasToString("RetryPolicy[fixed maxAttempts=2 delay=PT5S]");
    assertThat(
            RetryPolicy.exponential(3, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1))
                .doNotRetry("CardDeclined")
                .totalTimeout(Duration.ofMinutes(10)))
        .hasToString(
            "RetryPolicy[exponential maxAttempts=3 first=PT1S multiplier=2.0 max=PT1M"
                + " doNotRetry=[CardDeclined] totalTimeout=PT10M]");
  }
}
