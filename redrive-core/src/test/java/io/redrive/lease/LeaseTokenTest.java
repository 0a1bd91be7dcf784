package io.redrive.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LeaseTokenTest {
  @Test
  void issue_thenParse_roundTrips() {
    String id = UUID.randomUUID().toString();
    LeaseToken t = LeaseToken.issue(id);
    assertThat(LeaseToken.parse(t.toString())).isEqualTo(t);
    assertThat(t.messageId()).isEqualTo(id);
  }

  @Test
  void issue_twice_givesDifferentNonces() {
    String id = UUID.randomUUID().toString();
    assertThat(LeaseToken.issue(id)).isNotEqualTo(LeaseToken.issue(id));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        " ",
        "abc",
        "not-a-token.0123",
        "0123456789abcdef0123456789abcdef01234.0123456789abcdef0123456789abcdef"
      })
  void parse_malformed_isRejectedNamingTheField(String text) {
    assertThatThrownBy(() -> LeaseToken.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("leaseToken: ");
  }
}
