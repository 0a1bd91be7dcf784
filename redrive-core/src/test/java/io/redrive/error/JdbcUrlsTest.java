package io.redrive.error;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JdbcUrlsTest {

  @Test
  void mask_passwordParameter_isMaskedOtherParametersKept() {
    assertThat(JdbcUrls.mask("jdbc:postgresql://h:5432/db?user=me&password=secret&ssl=true"))
        .isEqualTo("jdbc:postgresql://h:5432/db?user=me&password=****&ssl=true");
    assertThat(JdbcUrls.mask("jdbc:postgresql://h/db?PASSWORD=secret"))
        .isEqualTo("jdbc:postgresql://h/db?PASSWORD=****");
  }

  @Test
  void mask_userInfo_isMasked() {
    assertThat(JdbcUrls.mask("jdbc:postgresql://me:secret@h:5432/db"))
        .isEqualTo("jdbc:postgresql://me:****@h:5432/db");
    // the driver takes "me:secret@h" for a host name and quotes it without the url
    assertThat(JdbcUrls.mask("UnknownHostException: me:secret@127.0.0.1"))
        .isEqualTo("UnknownHostException: me:****@127.0.0.1");
  }

  @Test
  void mask_urlInsideAMessage_masksOnlyThePassword() {
    String message =
        "cannot connect to PostgreSQL at jdbc:postgresql://me:secret@h/db?password=secret:"
            + " refused";
    assertThat(JdbcUrls.mask(message))
        .doesNotContain("secret")
        .isEqualTo(
            // a password ends only at a separator or a space, so the ':' goes with it
            "cannot connect to PostgreSQL at jdbc:postgresql://me:****@h/db?password=****"
                + " refused");
  }

  @Test
  void mask_textWithoutPassword_unchanged() {
    assertThat(JdbcUrls.mask("jdbc:postgresql://h:5432/db?user=me"))
        .isEqualTo("jdbc:postgresql://h:5432/db?user=me");
    assertThat(JdbcUrls.mask(null)).isNull();
  }

  @Test
  void storeException_messageQuotingAUrl_isMasked() {
    StoreException e =
        new StoreException("failed at jdbc:postgresql://h/db?password=secret", "08001", true, null);
    assertThat(e.getMessage()).doesNotContain("secret").contains("password=****");
  }
}
