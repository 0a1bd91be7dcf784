package io.redrive.failure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class DependenciesTest {

  @Test
  void learn_connectionFailure_namesTheHostAndPort() {
    assertThat(
            Dependencies.learn(
                new ConnectException("Connection refused: smtp.example.com/10.0.0.5:25")))
        .isEqualTo("smtp.example.com:25");
    assertThat(Dependencies.learn(new ConnectException("connect to payments.internal:8443 failed")))
        .isEqualTo("payments.internal:8443");
    assertThat(Dependencies.learn(new UnknownHostException("api.example.org")))
        .isEqualTo("api.example.org");
  }

  @Test
  void learn_inTheCauseChain_isFound() {
    IOException wrapped =
        new IOException("send failed", new ConnectException("refused: mail.example.com:587"));

    assertThat(Dependencies.learn(wrapped)).isEqualTo("mail.example.com:587");
  }

  @Test
  void learn_noHost_orNotAConnectionFailure_isTheClassName() {
    assertThat(Dependencies.learn(new ConnectException("Connection refused")))
        .isEqualTo("java.net.ConnectException");
    assertThat(Dependencies.learn(new IllegalStateException("see db.example.com:5432")))
        .isEqualTo("java.lang.IllegalStateException");
  }

  @Test
  void require_blankOrLong_namesTheOption() {
    assertThat(Dependencies.require("dependency", null)).isNull();
    assertThat(Dependencies.require("dependency", "smtp")).isEqualTo("smtp");
    assertThatThrownBy(() -> Dependencies.require("dependency", " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("dependency: must be 1 to 200 characters");
  }
}
