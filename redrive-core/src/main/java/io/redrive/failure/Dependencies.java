package io.redrive.failure;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names the dependency a failure was against, for a queue whose circuit breaker learns them: a
 * connection failure ({@link ConnectException}, {@link NoRouteToHostException}, {@link
 * UnknownHostException}, {@link SocketTimeoutException}, here or in the cause chain) is named by
 * the first host-like text in its message (a dotted name or address, with its {@code :port} when
 * given, e.g. {@code smtp.example.com:25}); any other failure by its exception's class name.
 * Deliberately simple: a handler that knows better names the dependency itself.
 */
public final class Dependencies {
  /** Longest dependency name kept. */
  public static final int MAX_LENGTH = 200;

  private static final Pattern HOST =
      Pattern.compile("([A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)+|\\[[0-9A-Fa-f:]+\\])(:\\d{1,5})?");

  private static final Pattern ADDRESS_PORT = Pattern.compile("^/[^\\s:]+(:\\d{1,5})");

  private Dependencies() {}

  /** The dependency {@code failure} names, never null for a non-null failure. */
  public static String learn(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (isConnection(t) && t.getMessage() != null) {
        String host = host(t.getMessage());
        if (host != null) {
          return bounded(host);
        }
      }
    }
    return bounded(failure.getClass().getName());
  }

  private static final List<String> CONNECTION_FAILURES =
      List.of(
          "java.net.ConnectException",
          "java.net.NoRouteToHostException",
          "java.net.UnknownHostException",
          "java.net.SocketTimeoutException");

  private static final Pattern CLASS_NAME =
      Pattern.compile("^((?:[a-z_][A-Za-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*)(?::\\s?(.*))?$");

  /**
   * The dependency a stored failure names, learned as {@link #learn(Throwable)} does from its text
   * ({@code "<exception class>: <message>"}, as the Java worker describes what a handler threw, and
   * the {@code Caused by:} lines of its stack trace), or null when the text names no exception
   * class (a caller's own words). The store learns this way for a queue whose circuit breaker
   * learns.
   */
  public static String learn(String message, String stackTrace) {
    List<String> lines = new java.util.ArrayList<>();
    if (message != null) {
      lines.add(message.strip());
    }
    if (stackTrace != null) {
      for (String line : stackTrace.split("\\R")) {
        if (line.startsWith("Caused by: ")) {
          lines.add(line.substring("Caused by: ".length()).strip());
        }
      }
    }
    String first = null;
    for (String line : lines) {
      Matcher m = CLASS_NAME.matcher(line);
      if (!m.matches()) {
        continue;
      }
      first = first == null ? m.group(1) : first;
      if (CONNECTION_FAILURES.contains(m.group(1)) && m.group(2) != null) {
        String host = host(m.group(2));
        if (host != null) {
          return bounded(host);
        }
      }
    }
    return first == null ? null : bounded(first);
  }

  /** Checks a dependency name given by a caller; null stays null (no dependency). */
  public static String require(String option, String dependency) {
    if (dependency == null) {
      return null;
    }
    if (dependency.isBlank() || dependency.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          option
              + ": must be 1 to "
              + MAX_LENGTH
              + " characters, not blank, was \""
              + dependency
              + "\"");
    }
    return dependency;
  }

  private static boolean isConnection(Throwable t) {
    return t instanceof ConnectException
        || t instanceof NoRouteToHostException
        || t instanceof UnknownHostException
        || t instanceof SocketTimeoutException;
  }

  /** The first host-like text of {@code message} ({@code host/1.2.3.4:25} names the host). */
  private static String host(String message) {
    Matcher m = HOST.matcher(message);
    while (m.find()) {
      String name = m.group(1);
      String port = m.group(2);
      if (port == null) {
        // "smtp.example.com/10.0.0.5:25": the port follows the address.
        Matcher after = ADDRESS_PORT.matcher(message.substring(m.end()));
        if (after.find()) {
          port = after.group(1);
        }
      }
      return port == null ? name : name + port;
    }
    return null;
  }

  private static String bounded(String name) {
    return name.length() <= MAX_LENGTH ? name : name.substring(0, MAX_LENGTH);
  }
}
