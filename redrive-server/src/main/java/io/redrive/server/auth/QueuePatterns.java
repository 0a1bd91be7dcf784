package io.redrive.server.auth;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The queue patterns an API key can be limited to: an exact queue name ({@code orders}) or a glob
 * where {@code *} stands for any run of characters, dots included ({@code billing.*}, {@code *}).
 * Stateless and thread-safe.
 */
public final class QueuePatterns {
  private static final Pattern FORM = Pattern.compile("[A-Za-z0-9._*-]{1,200}");
  private static final Pattern WORKFLOW_FORM = Pattern.compile("[A-Za-z0-9._:@*-]{1,200}");

  private QueuePatterns() {}

  /**
   * Returns {@code pattern} when it is a valid queue pattern.
   *
   * @param field the setting being validated, used in the message
   * @throws IllegalArgumentException naming the field and the problem
   */
  public static String require(String field, String pattern) {
    if (pattern == null || pattern.isEmpty()) {
      throw new IllegalArgumentException(field + ": queue pattern is empty");
    }
    if (!FORM.matcher(pattern).matches()) {
      throw new IllegalArgumentException(
          field
              + ": invalid queue pattern \""
              + pattern
              + "\" (use a queue name, or a glob with '*' such as \"orders.*\")");
    }
    return pattern;
  }

  /**
   * Returns {@code pattern} when it is a valid orchestration name pattern: a name, or a glob with
   * {@code *} ({@code order*}); 1–200 characters of {@code [A-Za-z0-9._:@*-]}.
   *
   * @throws IllegalArgumentException naming the field and the problem
   */
  public static String requireWorkflow(String field, String pattern) {
    if (pattern == null || pattern.isEmpty()) {
      throw new IllegalArgumentException(field + ": orchestration pattern is empty");
    }
    if (!WORKFLOW_FORM.matcher(pattern).matches()) {
      throw new IllegalArgumentException(
          field
              + ": invalid orchestration pattern \""
              + pattern
              + "\" (use an orchestration name, or a glob with '*' such as \"order*\")");
    }
    return pattern;
  }

  /** True when {@code queue} matches at least one of {@code patterns}. */
  public static boolean matchesAny(List<String> patterns, String queue) {
    for (String p : patterns) {
      if (matches(p, queue)) {
        return true;
      }
    }
    return false;
  }

  /** True when {@code queue} matches {@code pattern} ({@code *} matches any run of characters). */
  public static boolean matches(String pattern, String queue) {
    if (queue == null) {
      return false;
    }
    int star = pattern.indexOf('*');
    if (star < 0) {
      return pattern.equals(queue);
    }
    String[] parts = pattern.split("\\*", -1);
    String first = parts[0];
    String last = parts[parts.length - 1];
    if (queue.length() < first.length() + last.length()
        || !queue.startsWith(first)
        || !queue.endsWith(last)) {
      return false;
    }
    int at = first.length();
    int end = queue.length() - last.length();
    for (int i = 1; i < parts.length - 1; i++) {
      int found = queue.indexOf(parts[i], at);
      if (found < 0 || found + parts[i].length() > end) {
        return false;
      }
      at = found + parts[i].length();
    }
    return true;
  }
}
