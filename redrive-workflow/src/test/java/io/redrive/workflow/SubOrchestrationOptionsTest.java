package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SubOrchestrationOptionsTest {
  private static final RetryPolicy RETRY = RetryPolicy.fixed(2, Duration.ofSeconds(1));

  @Test
  void defaults_nothingSet_generatedIdDefaultVersionNoRetry() {
    SubOrchestrationOptions d = SubOrchestrationOptions.defaults();

    assertThat(d.instanceId()).isNull();
    assertThat(d.version()).isNull();
    assertThat(d.retry()).isEqualTo(RetryPolicy.none());
  }

  @Test
  void builder_allSet_keepsEachValue() {
    SubOrchestrationOptions o =
        SubOrchestrationOptions.builder()
            .instanceId("order-42-shipping")
            .version("2.1.0")
            .retry(RETRY)
            .build();

    assertThat(o).isEqualTo(new SubOrchestrationOptions("order-42-shipping", "2.1.0", RETRY));
  }

  @Test
  void builder_nothingSet_equalsDefaults() {
    assertThat(SubOrchestrationOptions.builder().build())
        .isEqualTo(SubOrchestrationOptions.defaults());
  }

  @Test
  void withers_eachChangeOneFieldAndLeaveTheOriginal() {
    SubOrchestrationOptions base = SubOrchestrationOptions.defaults();

    SubOrchestrationOptions changed =
        base.withInstanceId("child-1").withVersion("1.10.0").withRetry(RETRY);

    assertThat(changed).isEqualTo(new SubOrchestrationOptions("child-1", "1.10.0", RETRY));
    assertThat(changed.withVersion(null).version()).isNull();
    assertThat(changed.withVersion(null).instanceId()).isEqualTo("child-1");
    assertThat(changed.withRetry(null).retry()).isEqualTo(RetryPolicy.none());
    assertThat(base.instanceId()).isNull();
  }

  @Test
  void version_notSemver_isRejectedNamingIt() {
    assertThatThrownBy(() -> SubOrchestrationOptions.defaults().withVersion("1.2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("version: \"1.2\" is not MAJOR.MINOR.PATCH");
  }

  @Test
  void instanceId_blank_isRejectedNamingIt() {
    assertThatThrownBy(() -> SubOrchestrationOptions.builder().instanceId("  ").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("instanceId: must not be blank, was \"  \"");
  }

  @Test
  void instanceId_over200Characters_isRejectedWithItsLength() {
    assertThatThrownBy(() -> SubOrchestrationOptions.defaults().withInstanceId("i".repeat(201)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("instanceId: must be at most 200 characters, was 201");
  }

  @Test
  void instanceId_exactly200Characters_isAccepted() {
    assertThat(SubOrchestrationOptions.defaults().withInstanceId("i".repeat(200)).instanceId())
        .hasSize(200);
  }

  @Test
  void instanceId_controlCharacter_isRejectedShowingItEscaped() {
    assertThatThrownBy(() -> SubOrchestrationOptions.defaults().withInstanceId("a\nb"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("instanceId: must not contain control characters, was \"a\\u000Ab\"");
  }

  @Test
  void instanceId_empty_isRejected() {
    assertThatThrownBy(() -> SubOrchestrationOptions.defaults().withInstanceId(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("instanceId: must not be blank, was \"\"");
  }
}
