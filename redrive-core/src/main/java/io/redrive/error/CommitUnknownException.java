package io.redrive.error;

/**
 * The store sent COMMIT but lost the connection before the answer came back: the change may or may
 * not have happened. Unlike {@link StoreException} this never means "nothing happened", so it is
 * never retried by the store itself; a caller retries idempotently (the same {@code dedupeKey} for
 * an enqueue, the same token for a settle) and reads the answer of the retry.
 */
public final class CommitUnknownException extends RedriveException {
  /** Its error code, on the wire too. */
  public static final String CODE = "COMMIT_UNKNOWN";

  private final String sqlState;

  public CommitUnknownException(String message, String sqlState, Throwable cause) {
    super(
        CODE,
        (sqlState == null ? message : message + " (SQLState " + sqlState + ")")
            + "; the change may have happened: retry idempotently",
        cause);
    this.sqlState = sqlState;
  }

  /** The SQLState of the failure seen while committing, or null. */
  public String sqlState() {
    return sqlState;
  }
}
