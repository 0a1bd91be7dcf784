package io.redrive.cli.command;

/** The last {@code max} characters written to it. Thread-safe. */
final class Tail {
  private final int max;
  private final StringBuilder text = new StringBuilder();

  Tail(int max) {
    this.max = max;
  }

  synchronized void append(String s) {
    text.append(s);
    if (text.length() > max) {
      text.delete(0, text.length() - max);
    }
  }

  synchronized String text() {
    return text.toString();
  }
}
