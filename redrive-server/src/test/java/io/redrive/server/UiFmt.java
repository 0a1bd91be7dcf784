package io.redrive.server;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Links as the dashboard writes them, for tests that look for them in its pages. */
final class UiFmt {
  private UiFmt() {}

  /** One path segment, percent-encoded as the dashboard's links encode it. */
  static String seg(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A query parameter value, percent-encoded. */
  static String q(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
