package io.redrive.postgres;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PostgreSQL JDBC url split into the url without its secret and the credentials it carried
 * ({@code user:password@host} or a {@code password=} parameter). The store hands the pool and the
 * driver only the url without the password, and the password separately, so no log line of theirs
 * (HikariCP prints the url at DEBUG; a failed connection quotes the host part) can show it.
 *
 * @param url the url without user-info and without a {@code password} parameter
 * @param user the user from the user-info part, or null
 * @param password the password from the user-info part or the {@code password} parameter, or null
 */
record UrlCredentials(String url, String user, String password) {
  /** {@code jdbc:postgresql://user[:password]@rest}: user-info before the first host. */
  private static final Pattern USER_INFO = Pattern.compile("(jdbc:postgresql://)([^/?#@]*)@(.*)");

  static UrlCredentials split(String jdbcUrl) {
    String user = null;
    String password = null;
    String rest = jdbcUrl;
    Matcher m = USER_INFO.matcher(jdbcUrl);
    if (m.matches()) {
      String info = m.group(2);
      int colon = info.indexOf(':');
      user = decode(colon < 0 ? info : info.substring(0, colon));
      password = colon < 0 ? null : decode(info.substring(colon + 1));
      rest = m.group(1) + m.group(3);
    }
    int query = rest.indexOf('?');
    if (query >= 0) {
      List<String> kept = new ArrayList<>();
      for (String parameter : rest.substring(query + 1).split("&", -1)) {
        int eq = parameter.indexOf('=');
        String key = eq < 0 ? parameter : parameter.substring(0, eq);
        if (key.equals("password")) {
          // The driver decodes parameter values the same way.
          password = decode(eq < 0 ? "" : parameter.substring(eq + 1));
        } else if (!parameter.isEmpty()) {
          kept.add(parameter);
        }
      }
      rest = rest.substring(0, query) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
    }
    return new UrlCredentials(rest, user, password);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  /** Never shows the password. */
  @Override
  public String toString() {
    return "UrlCredentials[url=" + url + ", user=" + user + ", password=****]";
  }
}
