package io.redrive.testkit.process;

/**
 * What a {@link WorkerProcess} handler does with a message. Every behaviour first prints {@code
 * RUNNING <type> <id> <attempt>} on the child's stdout.
 */
public enum Behaviour {
  /**
   * Completes; first appends a {@link ResultLine} (id, type, attempt, worker and the message's
   * history up to this delivery) to the results file.
   */
  COMPLETE,
  /** Kills its own JVM at once with {@code Runtime.halt(137)}: no shutdown hook, no settle. */
  HALT,
  /** Blocks until interrupted (shutdown) or the JVM is killed; the test decides which. */
  BLOCK;

  /** The name used on the command line, e.g. {@code complete}. */
  public String arg() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  static Behaviour parse(String arg) {
    return valueOf(arg.toUpperCase(java.util.Locale.ROOT));
  }
}
