package io.redrive.error;

/**
 * The store failed to carry out a request. Vendor exceptions are wrapped here with their cause and
 * SQLState; {@link #transientFailure()} tells whether retrying the call may succeed.
 */
public final class StoreException extends RedriveException {
  private final boolean transientFailure;
  private final String sqlState;

  public StoreException(
      String message, String sqlState, boolean transientFailure, Throwable cause) {
    super(
        "STORE_ERROR",
        // A driver's message may quote the connection url: never let its password through.
        JdbcUrls.mask(sqlState == null ? message : message + " (SQLState " + sqlState + ")"),
        cause);
    this.sqlState = sqlState;
    this.transientFailure = transientFailure;
  }

  /** True when the failure is likely temporary (connection loss, lock timeout, serialization). */
  public boolean transientFailure() {
    return transientFailure;
  }

  /** The SQLState of the underlying database error, or null. */
  public String sqlState() {
    return sqlState;
  }
}
