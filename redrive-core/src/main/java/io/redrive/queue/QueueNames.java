package io.redrive.queue;

import java.util.regex.Pattern;

/**
 * The rule for queue names: 1–200 characters of {@code [A-Za-z0-9._-]}, except {@code .} and {@code
 * ..}, which no URL can name (clients and browsers resolve them as path segments).
 */
public final class QueueNames {
  /** Longest allowed queue name. */
  public static final int MAX_LENGTH = 200;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

  private QueueNames() {}

  /**
   * Returns {@code name} when it is a valid queue name.
   *
   * @param field the setting being validated, used in the message
   * @throws IllegalArgumentException naming the field and the problem
   */
  public static String require(String field, String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException(field + ": queue name is required");
    }
    if (name.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          field
              + ": queue name is "
              + name.length()
              + " characters long (at most "
              + MAX_LENGTH
              + ")");
    }
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          field
              + ": invalid queue name \""
              + name
              + "\" (use 1-200 characters of A-Z, a-z, 0-9, '.', '_', '-')");
    }
    if (name.equals(".") || name.equals("..")) {
      throw new IllegalArgumentException(
          field
              + ": invalid queue name \""
              + name
              + "\" (\".\" and \"..\" cannot appear in a URL)");
    }
    return name;
  }
}
