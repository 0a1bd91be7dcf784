package io.redrive.failure;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Renders throwables as bounded text so one huge trace cannot bloat a message's history. */
public final class StackTraces {
  /** Default bound for a stored stack trace, in characters. */
  public static final int DEFAULT_MAX_CHARS = 8_000;

  private StackTraces() {}

  /** The stack trace of {@code t} (with causes), cut to {@code maxChars} characters. */
  public static String bounded(Throwable t, int maxChars) {
    if (t == null) {
      return null;
    }
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return bounded(out.toString(), maxChars);
  }

  /** {@code text} cut to {@code maxChars} characters with a marker saying how much was cut. */
  public static String bounded(String text, int maxChars) {
    if (text == null || text.length() <= maxChars) {
      return text;
    }
    int cut = text.length() - maxChars;
    return text.substring(0, maxChars) + "\n\t... " + cut + " more characters cut";
  }
}
