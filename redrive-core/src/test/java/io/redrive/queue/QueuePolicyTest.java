package io.redrive.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.retry.FixedBackoff;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QueuePolicyTest {
  @Test
  void defaults_matchArchitecture() {
    QueuePolicy p = QueuePolicy.defaults();
    assertThat(p.maxAttempts()).isEqualTo(5);
    assertThat(p.leaseTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(p.deadLetter().mode()).isEqualTo(DeadLetter.Mode.KEEP);
    assertThat(p.streamPolicy()).isEqualTo(StreamPolicy.HOLD);
    assertThat(p.expireAfter()).isNull();
    assertThat(p.maxCrashes()).isZero();
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 10_001})
  void maxCrashes_outOfRange_isRejectedNamingTheField(int value) {
    assertThatThrownBy(() -> QueuePolicy.defaults().withMaxCrashes(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxCrashes: must be between 0 (off) and 10000, was " + value);
    assertThatThrownBy(() -> QueueUpdate.builder().maxCrashes(value).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("maxCrashes: ");
  }

  @Test
  void maxCrashes_keptByEveryOtherWither_andMergedByAnUpdate() {
    QueuePolicy p = QueuePolicy.defaults().withMaxCrashes(2);
    assertThat(p.withMaxAttempts(3).withRetry(4, Duration.ofSeconds(1)).maxCrashes()).isEqualTo(2);
    assertThat(QueueUpdate.builder().maxAttempts(3).build().applyTo(p).maxCrashes()).isEqualTo(2);
    assertThat(QueueUpdate.builder().maxCrashes(0).build().applyTo(p).maxCrashes()).isZero();
    assertThat(QueueUpdate.builder().maxCrashes(0).build().isEmpty()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, 10_001})
  void maxAttempts_outOfRange_isRejected(int value) {
    assertThatThrownBy(() -> QueuePolicy.defaults().withMaxAttempts(value))
        .hasMessageStartingWith("maxAttempts: must be between 1 and 10000, was " + value);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void retryForm_zeroOrOneAttempts_meansNoRetry(int attempts) {
    QueuePolicy p = QueuePolicy.defaults().withRetry(attempts, Duration.ofSeconds(30));
    assertThat(p.maxAttempts()).isEqualTo(1);
    assertThat(p.backoff()).isEqualTo(new FixedBackoff(Duration.ofSeconds(30)));
  }

  @Test
  void update_mergesOnlyGivenFields() {
    QueuePolicy before = QueuePolicy.defaults().withLeaseTimeout(Duration.ofSeconds(9));
    QueuePolicy after = QueueUpdate.builder().maxAttempts(2).build().applyTo(before);
    assertThat(after).isEqualTo(before.withMaxAttempts(2));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a b", "é", "x/y", ".", ".."})
  void queueName_invalid_isRejected(String name) {
    assertThatThrownBy(() -> QueueNames.require("name", name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("name: ");
  }

  @Test
  void queueName_201Chars_isRejected() {
    assertThatThrownBy(() -> QueueNames.require("name", "a".repeat(201)))
        .hasMessageContaining("201 characters");
    assertThat(QueueNames.require("name", "a".repeat(200))).hasSize(200);
  }

  @Test
  void queueName_dotsThatAreNotPathSegments_areFine() {
    assertThat(QueueNames.require("name", "...")).isEqualTo("...");
    assertThat(QueueNames.require("name", ".hidden")).isEqualTo(".hidden");
    assertThat(QueueNames.require("name", "orders.dlq")).isEqualTo("orders.dlq");
  }
}
