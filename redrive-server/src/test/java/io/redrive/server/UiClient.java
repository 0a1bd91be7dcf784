package io.redrive.server;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dashboard as a browser without JavaScript sees it: a cookie jar, form posts, no redirects
 * followed (tests look at them). Not thread-safe.
 */
final class UiClient {
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

  private final String base;
  private final CookieManager cookies = new CookieManager();
  private final HttpClient http;

  UiClient(String base) {
    this.base = base;
    this.http =
        HttpClient.newBuilder()
            .cookieHandler(cookies)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
  }

  HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A GET as htmx's live refresh sends it (with {@code HX-Request: true}). */
  HttpResponse<String> getLive(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(20))
            .header("HX-Request", "true")
            .header("HX-Trigger", "live-bar")
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A form post as a browser on this server's page sends it (with its Origin). */
  HttpResponse<String> post(String path, Map<String, String> form) throws Exception {
    return post(path, form, base);
  }

  HttpResponse<String> post(String path, Map<String, String> form, String origin) throws Exception {
    StringJoiner body = new StringJoiner("&");
    for (Map.Entry<String, String> e : form.entrySet()) {
      body.add(
          URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
              + "="
              + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
    }
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
    if (origin != null) {
      b.header("Origin", origin);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Signs in with {@code key}; the answer is the login's redirect. */
  HttpResponse<String> login(String key) throws Exception {
    return post("/ui/login", form("key", key, "next", "/ui"));
  }

  /** A client of {@code server} signed in with {@code key} (the sign-in must succeed). */
  static UiClient signedIn(RedriveServer server, String key) throws Exception {
    UiClient ui = new UiClient(server.baseUrl());
    HttpResponse<String> r = ui.login(key);
    if (r.statusCode() != 303) {
      throw new AssertionError("sign-in refused: " + r.statusCode() + " " + r.body());
    }
    return ui;
  }

  /** The CSRF token in a page's forms. */
  static String csrfOf(String html) {
    Matcher m = CSRF.matcher(html);
    if (!m.find()) {
      throw new AssertionError("no CSRF token on the page:\n" + html);
    }
    return m.group(1);
  }

  /** The session cookie's value, or null. */
  String sessionCookie() {
    return cookies.getCookieStore().getCookies().stream()
        .filter(c -> c.getName().equals("redrive_session"))
        .map(java.net.HttpCookie::getValue)
        .findFirst()
        .orElse(null);
  }

  /** Puts a session cookie into the jar (a copied cookie). */
  void useCookie(String value) throws Exception {
    var cookie = new java.net.HttpCookie("redrive_session", value);
    cookie.setPath("/ui");
    cookie.setVersion(0);
    cookies.getCookieStore().add(URI.create(base + "/ui"), cookie);
  }

  static Map<String, String> form(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }
}
