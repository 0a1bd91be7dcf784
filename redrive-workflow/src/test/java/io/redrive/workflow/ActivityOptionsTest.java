package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ActivityOptionsTest {
  private static final RetryPolicy RETRY = RetryPolicy.fixed(3, Duration.ofSeconds(2));

  @Test
  void defaults_nothingSet_registrationValuesAndNoRetry() {
    ActivityOptions d = ActivityOptions.defaults();

    assertThat(d.queue()).isNull();
    assertThat(d.timeout()).isNull();
    assertThat(d.retry()).isEqualTo(RetryPolicy.none());
  }

  @Test
  void builder_allSet_keepsEachValue() {
    ActivityOptions o =
        ActivityOptions.builder()
            .queue("wf.payments")
            .timeout(Duration.ofSeconds(30))
            .retry(RETRY)
            .build();

    assertThat(o).isEqualTo(new ActivityOptions("wf.payments", Duration.ofSeconds(30), RETRY));
  }

  @Test
  void builder_nothingSet_equalsDefaults() {
    assertThat(ActivityOptions.builder().build()).isEqualTo(ActivityOptions.defaults());
  }

  @Test
  void constructor_nullRetry_readsAsNone() {
    assertThat(new ActivityOptions("q", null, null).retry()).isEqualTo(RetryPolicy.none());
  }

  @Test
  void withers_eachChangeOneFieldAndLeaveTheOriginal() {
    ActivityOptions base = ActivityOptions.defaults();

    ActivityOptions changed =
        base.withQueue("wf.slow").withTimeout(Duration.ofMinutes(5)).withRetry(RETRY);

    assertThat(changed.queue()).isEqualTo("wf.slow");
    assertThat(changed.timeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(changed.retry()).isSameAs(RETRY);
    assertThat(changed.withQueue(null).queue()).isNull();
    assertThat(changed.withQueue(null).timeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(base).isEqualTo(new ActivityOptions(null, null, RetryPolicy.none()));
  }

  @Test
  void queue_empty_isRejectedNamingIt() {
    assertThatThrownBy(() -> ActivityOptions.defaults().withQueue(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queue: queue name is required");
  }

  @Test
  void queue_over200Characters_isRejectedNamingIt() {
    assertThatThrownBy(() -> ActivityOptions.builder().queue("q".repeat(201)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queue: queue name is 201 characters long (at most 200)");
  }

  @Test
  void queue_exactly200Characters_isAccepted() {
    assertThat(ActivityOptions.defaults().withQueue("q".repeat(200)).queue()).hasSize(200);
  }

  @Test
  void queue_notAQueueName_isRejectedWithTheValue() {
    assertThatThrownBy(() -> ActivityOptions.defaults().withQueue("wf payments"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("queue: invalid queue name \"wf payments\"");
  }

  @Test
  void timeout_zeroOrNegative_isRejectedNamingIt() {
    assertThatThrownBy(() -> ActivityOptions.defaults().withTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("timeout: must be positive, was PT0S");
    assertThatThrownBy(() -> ActivityOptions.builder().timeout(Duration.ofSeconds(-1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("timeout: must be positive, was PT-1S");
  }

  @Test
  void priorityAndLimitKey_setByBuilderAndWithers_keptAndUnsetByDefault() {
    ActivityOptions o = ActivityOptions.builder().priority(7).limitKey("tenant-1").build();

    assertThat(o.priority()).isEqualTo(7);
    assertThat(o.limitKey()).isEqualTo("tenant-1");
    assertThat(ActivityOptions.defaults().priority()).isNull();
    assertThat(ActivityOptions.defaults().limitKey()).isNull();
    assertThat(o.withPriority(null).priority()).isNull();
    assertThat(o.withPriority(null).limitKey()).isEqualTo("tenant-1");
    assertThat(o.withLimitKey(null).limitKey()).isNull();
    assertThat(o.withQueue("wf.other").priority()).isEqualTo(7);
    assertThat(o.withPlacement(ActivityPlacement.QUEUED).limitKey()).isEqualTo("tenant-1");
  }

  @Test
  void priority_outside0To9_isRejectedAsAnEnqueueRejectsIt() {
    assertThatThrownBy(() -> ActivityOptions.defaults().withPriority(10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("priority: must be between 0 and 9 (higher is served first), was 10");
    assertThatThrownBy(() -> ActivityOptions.builder().priority(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("priority: must be between 0 and 9");
    assertThat(ActivityOptions.defaults().withPriority(0).priority()).isZero();
    assertThat(ActivityOptions.defaults().withPriority(9).priority()).isEqualTo(9);
  }

  @Test
  void limitKey_blankTooLongOrNul_isRejectedAsAnEnqueueRejectsIt() {
    assertThatThrownBy(() -> ActivityOptions.defaults().withLimitKey(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limitKey: must not be blank");
    assertThatThrownBy(() -> ActivityOptions.defaults().withLimitKey("k".repeat(201)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limitKey: longer than 200 characters (201)");
    assertThatThrownBy(() -> ActivityOptions.defaults().withLimitKey("a\0b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limitKey: must not contain the NUL character (U+0000), found at index 1");
    assertThat(ActivityOptions.defaults().withLimitKey("k".repeat(200)).limitKey()).hasSize(200);
  }
}
