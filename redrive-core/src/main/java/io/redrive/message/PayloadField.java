package io.redrive.message;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A filter on a field of a message's JSON payload: the messages whose payload is a JSON object with
 * a string, number or boolean at {@code path} whose text equals {@code value}. A string matches by
 * its characters, a number by its JSON text ({@code 42} matches {@code "42"}, so the number 42 and
 * the string "42" both match), a boolean as {@code true} or {@code false}; a missing field, a null,
 * an object or an array never matches, and neither does a payload that is not JSON. Immutable.
 *
 * <p>The stores evaluate it in SQL as a scan of one queue's messages (no index on payloads): keep
 * it to listing pages of one queue.
 *
 * @param path the field's names from the top of the payload, separated by dots ({@code order.id}):
 *     each name 1–{@value #MAX_NAME} characters of {@code [A-Za-z0-9_-]}, at most {@value
 *     #MAX_DEPTH} names
 * @param value the text to compare with, at most {@value #MAX_VALUE} characters
 */
public record PayloadField(String path, String value) {
  /** Longest name of one level of the path. */
  public static final int MAX_NAME = 64;

  /** Most levels of a path. */
  public static final int MAX_DEPTH = 8;

  /** Longest value. */
  public static final int MAX_VALUE = 500;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1," + MAX_NAME + "}");

  /**
   * @throws IllegalArgumentException naming {@code field} or {@code value} when the path is not
   *     dot-separated names as above, or either contains a NUL character (neither store can compare
   *     with one), or the value is missing or too long
   */
  public PayloadField {
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("field: a payload field path is required, e.g. order.id");
    }
    noNul("field", path);
    String[] names = path.split("\\.", -1);
    if (names.length > MAX_DEPTH) {
      throw new IllegalArgumentException(
          "field: at most " + MAX_DEPTH + " levels, was " + names.length + " in \"" + path + "\"");
    }
    for (String name : names) {
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "field: use names of 1-"
                + MAX_NAME
                + " letters, digits, '_' or '-' separated by dots (order.id), was \""
                + path
                + "\"");
      }
    }
    if (value == null) {
      throw new IllegalArgumentException("value: a value to compare the payload field with");
    }
    noNul("value", value);
    if (value.length() > MAX_VALUE) {
      throw new IllegalArgumentException(
          "value: at most " + MAX_VALUE + " characters, was " + value.length());
    }
  }

  /** The path's names, top level first. */
  public List<String> names() {
    return List.of(path.split("\\."));
  }

  private static void noNul(String field, String text) {
    if (text.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          field
              + ": must not contain the NUL character (U+0000), found at index "
              + text.indexOf('\0'));
    }
  }
}
