package io.redrive.trace;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A W3C Trace Context {@code traceparent} header, read without a tracing library: what a message
 * carries when it was enqueued inside a trace, shown as its trace id by the dashboard and the API.
 *
 * @param traceId 32 lower-case hex digits, not all zero
 * @param parentId the producer's span id: 16 lower-case hex digits, not all zero
 * @param sampled the sampled flag
 */
public record TraceParent(String traceId, String parentId, boolean sampled) {

  /** The header (and message header) name: {@value}. */
  public static final String HEADER = "traceparent";

  /** The companion header name: {@value}. */
  public static final String STATE_HEADER = "tracestate";

  private static final Pattern FORMAT =
      Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?");

  /**
   * Parses {@code value}; empty for null or anything that is not a valid {@code traceparent} (wrong
   * length or case, an all-zero id, version {@code ff}, or version 00 with trailing data).
   */
  public static Optional<TraceParent> parse(String value) {
    if (value == null) {
      return Optional.empty();
    }
    var m = FORMAT.matcher(value.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    String version = m.group(1);
    if (version.equals("ff") || (version.equals("00") && m.group(5) != null)) {
      return Optional.empty();
    }
    String traceId = m.group(2);
    String parentId = m.group(3);
    if (traceId.chars().allMatch(c -> c == '0') || parentId.chars().allMatch(c -> c == '0')) {
      return Optional.empty();
    }
    boolean sampled = (Integer.parseInt(m.group(4), 16) & 1) == 1;
    return Optional.of(new TraceParent(traceId, parentId, sampled));
  }

  /** The trace id carried by {@code headers}' {@code traceparent}, if it is a valid one. */
  public static Optional<String> traceIdOf(Map<String, String> headers) {
    return headers == null
        ? Optional.empty()
        : parse(headers.get(HEADER)).map(TraceParent::traceId);
  }
}
