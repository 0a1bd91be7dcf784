package io.redrive.workflow;

/**
 * An orchestration version, {@code MAJOR.MINOR.PATCH}, ordered numerically (1.10.0 after 1.9.0).
 * Immutable.
 *
 * <p>Only plain ASCII digits are accepted, and no leading zeros: "1.02.0" and "1.2.0" would
 * otherwise be two spellings of one version, i.e. two registry keys and two pins for the same code.
 */
final class Semver implements Comparable<Semver> {
  private final int major;
  private final int minor;
  private final int patch;

  private Semver(int major, int minor, int patch) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
  }

  /** Parses {@code text} as the option named {@code version}. */
  static Semver parse(String text) {
    return parse("version", text);
  }

  /**
   * Parses {@code text}.
   *
   * @param field the option being validated, named in the message
   * @throws IllegalArgumentException naming {@code field} and the value when {@code text} is not
   *     {@code MAJOR.MINOR.PATCH}
   */
  static Semver parse(String field, String text) {
    if (text == null) {
      throw new IllegalArgumentException(field + ": is required, was null");
    }
    String[] parts = text.split("\\.", -1);
    if (parts.length != 3) {
      throw notSemver(field, text);
    }
    int[] numbers = new int[3];
    for (int i = 0; i < 3; i++) {
      numbers[i] = part(field, text, parts[i]);
    }
    return new Semver(numbers[0], numbers[1], numbers[2]);
  }

  private static int part(String field, String text, String part) {
    if (part.isEmpty() || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw notSemver(field, text);
    }
    if (part.length() > 1 && part.charAt(0) == '0') {
      throw new IllegalArgumentException(
          field + ": \"" + text + "\" has a leading zero in \"" + part + "\"");
    }
    try {
      return Integer.parseInt(part);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          field + ": \"" + text + "\" has a part larger than " + Integer.MAX_VALUE, e);
    }
  }

  private static IllegalArgumentException notSemver(String field, String text) {
    return new IllegalArgumentException(field + ": \"" + text + "\" is not MAJOR.MINOR.PATCH");
  }

  int major() {
    return major;
  }

  int minor() {
    return minor;
  }

  int patch() {
    return patch;
  }

  @Override
  public int compareTo(Semver other) {
    int c = Integer.compare(major, other.major);
    if (c == 0) {
      c = Integer.compare(minor, other.minor);
    }
    return c != 0 ? c : Integer.compare(patch, other.patch);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Semver s && major == s.major && minor == s.minor && patch == s.patch;
  }

  @Override
  public int hashCode() {
    return (major * 31 + minor) * 31 + patch;
  }

  /** {@code MAJOR.MINOR.PATCH}, the text it was parsed from. */
  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
