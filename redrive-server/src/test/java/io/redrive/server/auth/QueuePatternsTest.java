package io.redrive.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueuePatternsTest {
  @ParameterizedTest(name = "{0} ~ {1} -> {2}")
  @CsvSource({
    "orders, orders, true",
    "orders, orders.eu, false",
    "orders, order, false",
    "orders.*, orders.eu, true",
    "orders.*, orders.eu.north, true",
    "orders.*, orders., true",
    "orders.*, orders, false",
    "orders.*, ordersx, false",
    "*, anything, true",
    "*.dlq, emails.dlq, true",
    "*.dlq, emails.dlq.old, false",
    "a*b*c, abc, true",
    "a*b*c, a-b-c, true",
    "a*b*c, a-c-b, false",
    "a*bc*bc, abcbc, true",
    "a*bc*bc, abc, false",
  })
  void matches_globs(String pattern, String queue, boolean expected) {
    QueuePatterns.require("p", pattern);
    assertThat(QueuePatterns.matches(pattern, queue)).isEqualTo(expected);
  }
}
