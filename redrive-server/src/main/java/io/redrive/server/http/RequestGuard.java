package io.redrive.server.http;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.redrive.server.ui.Dashboard;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Keeps web pages from driving the API (docs/api.md, "Requests from browsers"): a keyless server on
 * a developer's laptop must not be paused, drained or read by a page the developer happens to open.
 * It checks, before any route runs: the {@code Host} names this server (DNS rebinding), a
 * state-changing request's {@code Origin} (when sent) names an allowed host, and a state-changing
 * request is not a "simple" cross-site request (JSON content type, or no body and {@link
 * #REQUEST_HEADER}). It also sets the protective headers every answer carries; a route that must
 * relax them (a dashboard under /ui) overrides them in its own handler. Thread-safe.
 */
final class RequestGuard {
  /** The header a state-changing request without a body sends instead of a JSON content type. */
  static final String REQUEST_HEADER = "X-Redrive-Request";

  /** The Content-Security-Policy of every answer unless a route sets its own. */
  static final String CSP = "default-src 'none'; frame-ancestors 'none'";

  private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

  private final Set<String> hosts;

  /**
   * @param bind the address the server listens on (its names are allowed as Host)
   * @param allowedHosts more allowed host names or addresses ({@code [server] allowedHosts})
   */
  RequestGuard(String bind, List<String> allowedHosts) {
    Set<String> h = new LinkedHashSet<>(List.of("localhost", "127.0.0.1", "[::1]"));
    h.addAll(boundNames(bind));
    for (String a : allowedHosts) {
      h.add(normalize(a));
    }
    this.hosts = Collections.unmodifiableSet(h);
  }

  /**
   * The errors {@link #check} can answer a call of {@code method} with, as status and codes (for
   * the OpenAPI document): a foreign {@code Host} on every route; a foreign {@code Origin} and a
   * non-JSON body on state-changing ones.
   */
  static Map<Integer, List<String>> errorsFor(HandlerType method) {
    Map<Integer, List<String>> errors = new TreeMap<>();
    errors.put(421, List.of("MISDIRECTED_REQUEST"));
    if (!SAFE_METHODS.contains(method.name())) {
      errors.put(403, List.of("ORIGIN_NOT_ALLOWED"));
      errors.put(415, List.of("UNSUPPORTED_MEDIA_TYPE"));
    }
    return errors;
  }

  /** True for the methods that may change state (every check applies to them). */
  static boolean changesState(HandlerType method) {
    return !SAFE_METHODS.contains(method.name());
  }

  /** The protective headers every answer carries (a route may override them). */
  static void protect(jakarta.servlet.http.HttpServletResponse response) {
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("Content-Security-Policy", CSP);
  }

  /**
   * Runs before every route: sets the headers, then refuses a foreign {@code Host} or {@code
   * Origin} ({@link #checkMediaType} follows authentication, in the route).
   */
  void check(Context ctx) {
    protect(ctx.res());
    String host = ctx.header("Host");
    if (host != null && !hosts.contains(hostOf(host))) {
      throw new ApiException(
          421,
          "MISDIRECTED_REQUEST",
          "Host \""
              + host
              + "\" is not a name of this server: use localhost, 127.0.0.1, [::1] or the bind"
              + " address, or add it to [server] allowedHosts");
    }
    if (SAFE_METHODS.contains(ctx.method().name())) {
      return;
    }
    String origin = ctx.header("Origin");
    if (origin != null && !originAllowed(origin)) {
      throw new ApiException(
          403,
          "ORIGIN_NOT_ALLOWED",
          "Origin \""
              + origin
              + "\" may not change state on this server: only pages served from an allowed host"
              + " (see [server] allowedHosts) may");
    }
  }

  /**
   * Refuses a state-changing request that is not JSON (or, without a body, lacks {@link
   * #REQUEST_HEADER}): the shapes a web page can send cross-site. Runs after the route has
   * authenticated the caller, so a wrong key hears 401 whatever its request looked like.
   */
  void checkMediaType(Context ctx) {
    if (SAFE_METHODS.contains(ctx.method().name()) || Dashboard.owns(ctx.path())) {
      // the dashboard's forms post as browsers do, and carry a CSRF token instead
      return;
    }
    String type = ctx.header("Content-Type");
    if (type != null) {
      String media = type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
      if (!media.equals("application/json")) {
        throw new ApiException(
            415,
            "UNSUPPORTED_MEDIA_TYPE",
            "Content-Type \"" + type + "\" is not accepted: send application/json");
      }
      return;
    }
    if (hasBody(ctx)) {
      throw new ApiException(
          415, "UNSUPPORTED_MEDIA_TYPE", "a request body needs Content-Type: application/json");
    }
    String marker = ctx.header(REQUEST_HEADER);
    if (marker == null || marker.isBlank()) {
      throw new ApiException(
          415,
          "UNSUPPORTED_MEDIA_TYPE",
          "a "
              + ctx.method().name()
              + " without a body needs Content-Type: application/json or "
              + REQUEST_HEADER
              + ": 1");
    }
  }

  private static boolean hasBody(Context ctx) {
    long length = ctx.req().getContentLengthLong();
    return length > 0 || (length < 0 && ctx.header("Transfer-Encoding") != null);
  }

  private boolean originAllowed(String origin) {
    try {
      URI uri = new URI(origin);
      String scheme = uri.getScheme();
      if (uri.getHost() == null
          || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
        return false;
      }
      return hosts.contains(normalize(uri.getHost()));
    } catch (URISyntaxException e) {
      return false;
    }
  }

  /** The host part of a Host header value, without its port, lower-cased. */
  static String hostOf(String header) {
    String h = header.trim();
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end < 0
          ? h.toLowerCase(Locale.ROOT)
          : h.substring(0, end + 1).toLowerCase(Locale.ROOT);
    }
    int colon = h.indexOf(':');
    if (colon >= 0 && h.indexOf(':', colon + 1) < 0) {
      h = h.substring(0, colon);
    }
    return normalize(h);
  }

  /** A host name or address as compared: lower case, IPv6 literals in brackets. */
  static String normalize(String host) {
    String h = host.trim().toLowerCase(Locale.ROOT);
    if (h.contains(":") && !h.startsWith("[")) {
      return "[" + h + "]";
    }
    return h;
  }

  private static Set<String> boundNames(String bind) {
    Set<String> names = new LinkedHashSet<>();
    names.add(normalize(bind));
    try {
      InetAddress address = InetAddress.getByName(bind);
      if (address.isAnyLocalAddress()) {
        // listening everywhere: every address of this machine names it
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
          for (InetAddress a : Collections.list(nic.getInetAddresses())) {
            names.add(literal(a));
          }
        }
      } else {
        names.add(literal(address));
      }
    } catch (UnknownHostException | SocketException e) {
      // the bind name itself stays allowed; the server fails to start on an unknown name anyway
    }
    return names;
  }

  private static String literal(InetAddress a) {
    String text = a.getHostAddress();
    if (a instanceof Inet6Address) {
      int zone = text.indexOf('%');
      return normalize(zone < 0 ? text : text.substring(0, zone));
    }
    return text;
  }
}
