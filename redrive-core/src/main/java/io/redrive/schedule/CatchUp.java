package io.redrive.schedule;

/**
 * What a firing does with due times missed while no node ran the scheduler (an outage), decided
 * when a firing finds more than one due time at or before {@code now}.
 *
 * @param mode which of the missed due times fire
 * @param limit with {@link Mode#ALL}, how many missed due times fire at most (oldest first; the
 *     rest are skipped and counted); 1 for the other modes
 */
public record CatchUp(Mode mode, int limit) {
  /** The most due times one firing of one schedule produces. */
  public static final int MAX_LIMIT = 1000;

  /** Fire once, for the latest missed due time (the default). */
  public static final CatchUp ONCE = new CatchUp(Mode.ONCE, 1);

  /** Fire none of the missed due times; go on with the next one after now. */
  public static final CatchUp SKIP = new CatchUp(Mode.SKIP, 1);

  /** The catch-up modes. */
  public enum Mode {
    /** Fire the latest missed due time only. */
    ONCE,
    /** Fire each missed due time, oldest first, at most {@code limit}. */
    ALL,
    /** Fire none of the missed due times. */
    SKIP
  }

  /**
   * @throws IllegalArgumentException naming {@code catchUp} when the mode is missing or the limit
   *     is outside 1–{@value #MAX_LIMIT}
   */
  public CatchUp {
    if (mode == null) {
      throw new IllegalArgumentException("catchUp: mode is required");
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException(
          "catchUp: limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
    if (mode != Mode.ALL && limit != 1) {
      throw new IllegalArgumentException("catchUp: a limit is only for ALL, was " + limit);
    }
  }

  /** Fire each missed due time, oldest first, at most {@code limit} of them. */
  public static CatchUp all(int limit) {
    return new CatchUp(Mode.ALL, limit);
  }

  /** The text form: {@code ONCE}, {@code SKIP} or {@code ALL:<limit>}. */
  @Override
  public String toString() {
    return mode == Mode.ALL ? "ALL:" + limit : mode.name();
  }

  /**
   * Reads the text form of {@link #toString()} ({@code all:5} and {@code once} too).
   *
   * @throws IllegalArgumentException naming {@code catchUp} and the text
   */
  public static CatchUp parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("catchUp: is required");
    }
    String t = text.trim().toUpperCase(java.util.Locale.ROOT);
    if (t.equals("ONCE")) {
      return ONCE;
    }
    if (t.equals("SKIP")) {
      return SKIP;
    }
    if (t.startsWith("ALL:")) {
      try {
        return all(Integer.parseInt(t.substring(4)));
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new IllegalArgumentException(
        "catchUp: expected ONCE, SKIP or ALL:<limit>, was \"" + text + "\"");
  }
}
