package io.redrive.deadletter;

/**
 * Where redriven messages of a stream go among the stream's waiting messages in the target queue
 * (docs/engine.md, "Redrive and stream order"). Messages without a stream are not affected.
 */
public enum RedrivePosition {
  /**
   * Back in their original sequence (the default): ahead of the stream's waiting messages that were
   * enqueued after them, behind those enqueued before them, and in their own original order.
   */
  ORIGINAL,
  /** Behind every waiting message of the stream, in their own original order. */
  END;

  /** Parses {@code original} or {@code end} (any case); names {@code field} when it is neither. */
  public static RedrivePosition parse(String field, String value) {
    if (value != null) {
      for (RedrivePosition p : values()) {
        if (p.name().equalsIgnoreCase(value.trim())) {
          return p;
        }
      }
    }
    throw new IllegalArgumentException(
        field
            + ": expected original or end, was "
            + (value == null ? "null" : "\"" + value + "\""));
  }
}
