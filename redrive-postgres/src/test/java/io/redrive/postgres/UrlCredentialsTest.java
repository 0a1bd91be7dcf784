package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UrlCredentialsTest {
  @Test
  void passwordParameter_takenOutOfTheUrl_otherParametersKeptInOrder() {
    UrlCredentials c =
        UrlCredentials.split("jdbc:postgresql://db:5432/app?user=me&password=s%40cret&ssl=true");
    assertThat(c.url()).isEqualTo("jdbc:postgresql://db:5432/app?user=me&ssl=true");
    assertThat(c.user()).isNull();
    assertThat(c.password()).isEqualTo("s@cret");
  }

  @Test
  void passwordAsTheOnlyOrLastParameter_leavesNoDanglingSeparator() {
    assertThat(UrlCredentials.split("jdbc:postgresql://db/app?password=x").url())
        .isEqualTo("jdbc:postgresql://db/app");
    assertThat(UrlCredentials.split("jdbc:postgresql://db/app?user=me&password=x").url())
        .isEqualTo("jdbc:postgresql://db/app?user=me");
  }

  @Test
  void userInfo_becomesUserAndPassword_andLeavesTheUrl() {
    UrlCredentials c = UrlCredentials.split("jdbc:postgresql://me:pa%3Ass@db1:5432,db2/app?ssl=1");
    assertThat(c.url()).isEqualTo("jdbc:postgresql://db1:5432,db2/app?ssl=1");
    assertThat(c.user()).isEqualTo("me");
    assertThat(c.password()).isEqualTo("pa:ss");
    UrlCredentials userOnly = UrlCredentials.split("jdbc:postgresql://me@db/app");
    assertThat(userOnly.url()).isEqualTo("jdbc:postgresql://db/app");
    assertThat(userOnly.user()).isEqualTo("me");
    assertThat(userOnly.password()).isNull();
  }

  @Test
  void noCredentials_urlUnchanged_andAnAtSignInAParameterIsNoUserInfo() {
    String url = "jdbc:postgresql://db/app?user=a@b&ApplicationName=x";
    UrlCredentials c = UrlCredentials.split(url);
    assertThat(c.url()).isEqualTo(url);
    assertThat(c.user()).isNull();
    assertThat(c.password()).isNull();
  }

  @Test
  void toString_neverShowsThePassword() {
    assertThat(UrlCredentials.split("jdbc:postgresql://db/app?password=hunter2").toString())
        .doesNotContain("hunter2");
  }
}
