package io.redrive.message;

/**
 * The rule for a message's names and keys (its type, stream, limit key and header names): not
 * blank, at most {@value #MAX_LENGTH} characters, no NUL character. One rule wherever such a key is
 * given: an enqueue, or an option that becomes one (a workflow activity's limit key), so both name
 * the same problem in the same words.
 */
public final class MessageKeys {
  /** Longest allowed name or key. */
  public static final int MAX_LENGTH = 200;

  private MessageKeys() {}

  /**
   * Returns {@code value} when it is a valid name or key, or null when it is null (absent).
   *
   * @param field the option being validated, used in the message
   * @throws IllegalArgumentException naming the field and the problem
   */
  public static String require(String field, String value) {
    if (value == null) {
      return null;
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + ": must not be blank");
    }
    if (value.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          field + ": longer than " + MAX_LENGTH + " characters (" + value.length() + ")");
    }
    requireNoNul(field, value);
    return value;
  }

  /**
   * Refuses text holding the NUL character, which neither store can keep.
   *
   * @throws IllegalArgumentException naming the field and where the character is
   */
  public static void requireNoNul(String field, String value) {
    if (value != null && value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          field
              + ": must not contain the NUL character (U+0000), found at index "
              + value.indexOf('\0'));
    }
  }
}
