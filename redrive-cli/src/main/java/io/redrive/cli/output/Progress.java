package io.redrive.cli.output;

import java.io.PrintWriter;
import java.util.function.BooleanSupplier;

/**
 * A one-line progress counter on standard error, redrawn in place, shown only when the command runs
 * on a terminal (so logs and pipes get no carriage returns). Not thread-safe.
 */
public final class Progress {
  /** Whether the command runs on a terminal; tests replace it. */
  public static BooleanSupplier terminal = () -> System.console() != null;

  private final PrintWriter err;
  private final boolean shown;
  private int width;

  private Progress(PrintWriter err, boolean shown) {
    this.err = err;
    this.shown = shown;
  }

  /** A progress line on {@code output}'s standard error; silent off a terminal or with --json. */
  public static Progress on(Output output) {
    return new Progress(output.err(), !output.json() && terminal.getAsBoolean());
  }

  /** True when updates are drawn (worth counting a total for). */
  public boolean shown() {
    return shown;
  }

  /** Redraws the line as {@code text}. */
  public void update(String text) {
    if (!shown) {
      return;
    }
    String padded = text.length() < width ? text + " ".repeat(width - text.length()) : text;
    width = text.length();
    err.print("\r" + padded);
    err.flush();
  }

  /** Clears the line, so what follows starts at the left margin. */
  public void done() {
    if (!shown || width == 0) {
      return;
    }
    err.print("\r" + " ".repeat(width) + "\r");
    err.flush();
    width = 0;
  }

  /**
   * What a bulk command says when {@code --limit} stopped it with {@code remaining} matches left.
   */
  public static String stoppedAtLimit(long limit, long remaining) {
    return "stopped at --limit "
        + limit
        + ": "
        + remaining
        + (remaining == 1 ? " more matches" : " more match")
        + " (run again, or raise --limit)";
  }
}
