package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.server.RawHttp.Answer;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Role;
import io.redrive.server.auth.WrongKeyThrottle;
import io.redrive.server.config.StoreSettings;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server with keys against a key guesser (docs/api.md, "Wrong keys"): authentication comes before
 * any other refusal of a request's shape, and after {@link WrongKeyThrottle#LIMIT} wrong keys one
 * address hears 429 with Retry-After, on the API and the dashboard's sign-in alike, while another
 * address's right key still works. Each test guesses from its own loopback address.
 */
class WrongKeyHttpTest {
  private static final String ADMIN = "admin-secret-0123456789abcdef";
  private static final String LOCAL = "Host: 127.0.0.1";

  @TempDir static Path dir;
  private static RedriveServer server;

  @BeforeAll
  static void start() {
    server =
        RedriveServer.start(
            TestServers.config().withStore(StoreSettings.sqlite(dir)),
            new KeyAuthorizer(List.of(new ApiKey("ada", ADMIN, Role.ADMIN, List.of()))));
    server.redrive().createQueue("orders");
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  private static Answer pause(String from, String key, String extraHeaders) {
    return RawHttp.sendFrom(
        from,
        server.port(),
        "POST /v1/queues/orders/pause HTTP/1.1\r\n"
            + LOCAL
            + "\r\nAuthorization: Bearer "
            + key
            + extraHeaders,
        null);
  }

  private static Answer stats(String from, String key) {
    return RawHttp.sendFrom(
        from,
        server.port(),
        "GET /v1/queues/orders/stats HTTP/1.1\r\n" + LOCAL + "\r\nAuthorization: Bearer " + key,
        null);
  }

  private static Answer signIn(String from, String key) {
    String form = "key=" + URLEncoder.encode(key, StandardCharsets.UTF_8) + "&next=%2Fui";
    return RawHttp.sendFrom(
        from,
        server.port(),
        "POST /ui/login HTTP/1.1\r\n"
            + LOCAL
            + "\r\nContent-Type: application/x-www-form-urlencoded",
        form);
  }

  @Test
  void aBodylessRequestWithAWrongKey_hears401_not415() {
    Answer wrong = pause("127.0.0.11", "not-the-key-0123456789abcdef", "");
    assertThat(wrong.status()).as(wrong.toString()).isEqualTo(401);
    Answer right = pause("127.0.0.11", ADMIN, "");
    assertThat(right.status()).as(right.toString()).isEqualTo(415);
    assertThat(server.redrive().getQueue("orders").paused()).isFalse();
  }

  @Test
  void tooManyWrongKeys_429WithRetryAfter_evenForTheRightKey_otherAddressesUnaffected() {
    String guesser = "127.0.0.12";
    for (int i = 0; i < WrongKeyThrottle.LIMIT; i++) {
      Answer a = stats(guesser, "guess-" + i + "-0123456789abcdef");
      assertThat(a.status()).as("guess %d: %s", i, a).isEqualTo(401);
    }
    Answer blocked = stats(guesser, ADMIN);
    assertThat(blocked.status()).as(blocked.toString()).isEqualTo(429);
    assertThat(blocked.code()).isEqualTo("TOO_MANY_WRONG_KEYS");
    long retryAfter = Long.parseLong(blocked.header("Retry-After"));
    assertThat(retryAfter).isBetween(1L, WrongKeyThrottle.WINDOW.toSeconds());
    assertThat(blocked.json().path("error").path("message").asText()).contains("wrong API keys");

    Answer other = stats("127.0.0.13", ADMIN);
    assertThat(other.status()).as(other.toString()).isEqualTo(200);
    Answer dashboard = signIn(guesser, ADMIN);
    assertThat(dashboard.status()).as("the sign-in counts the same address").isEqualTo(429);
    assertThat(dashboard.header("Retry-After")).isNotBlank();
  }

  @Test
  void tooManyWrongKeysAtSignIn_429Page_theApiRefusesThatAddressToo() {
    String guesser = "127.0.0.14";
    for (int i = 0; i < WrongKeyThrottle.LIMIT; i++) {
      Answer a = signIn(guesser, "guess-" + i + "-0123456789abcdef");
      assertThat(a.status()).as("guess %d", i).isEqualTo(401);
    }
    Answer page = signIn(guesser, ADMIN);
    assertThat(page.status()).isEqualTo(429);
    assertThat(page.header("Content-Type")).startsWith("text/html");
    assertThat(page.body()).contains("too many wrong API keys");
    assertThat(page.header("Set-Cookie")).as("no session opened").isNull();
    assertThat(stats(guesser, ADMIN).status()).isEqualTo(429);
    assertThat(signIn("127.0.0.15", ADMIN).status()).as("another address signs in").isEqualTo(303);
  }
}
