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

  @Test
  void learn_fromStoredText_likeTheWorkerDescribesIt() {
    assertThat(
            Dependencies.learn(
                "java.net.ConnectException: Connection refused: smtp.example.com/10.0.0.5:25",
                null))
        .isEqualTo("smtp.example.com:25");
    assertThat(
            Dependencies.learn(
                "java.io.IOException: send failed",
                "java.io.IOException: send failed\n\tat x.y(Z.java:1)\n"
                    + "Caused by: java.net.ConnectException: refused: mail.example.com:587\n"))
        .isEqualTo("mail.example.com:587");
    assertThat(Dependencies.learn("com.example.PaymentsDown: 503", null))
        .isEqualTo("com.example.PaymentsDown");
    assertThat(Dependencies.learn("boom", null)).as("a caller's own words").isNull();
    assertThat(Dependencies.learn(null, null)).isNull();
  }
}
