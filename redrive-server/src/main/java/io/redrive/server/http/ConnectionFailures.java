package io.redrive.server.http;

import io.redrive.error.StoreException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Locale;

/**
 * Tells a store failure caused by the connection to the database (the database is down or
 * unreachable, the pool had no connection in time, a connection dropped) from one the database
 * reported. Those are answered 503 {@code STORE_UNAVAILABLE} with a {@code Retry-After}: nothing is
 * wrong with the request, and retrying once the database is back succeeds.
 *
 * <p>Looks at the whole cause chain, since clean-up or wrapping may put the connection failure
 * behind another exception.
 */
final class ConnectionFailures {
  /** Seconds a client is asked to wait before retrying ({@code Retry-After}). */
  static final int RETRY_AFTER_SECONDS = 1;

  private ConnectionFailures() {}

  /** True when {@code e} (or anything in its cause chain) is a connection-level failure. */
  static boolean isConnectionFailure(StoreException e) {
    if (e.sqlState() != null && e.sqlState().startsWith("08")) {
      return true;
    }
    int depth = 0;
    for (Throwable t = e; t != null && depth < 20; t = t.getCause(), depth++) {
      if (connectionLevel(t)) {
        return true;
      }
    }
    return false;
  }

  private static boolean connectionLevel(Throwable t) {
    if (t instanceof SQLTransientConnectionException
        || t instanceof SQLNonTransientConnectionException
        || t instanceof ConnectException
        || t instanceof SocketTimeoutException
        || t instanceof SocketException) {
      return true;
    }
    if (t instanceof SQLException s) {
      String state = s.getSQLState();
      if (state != null && state.startsWith("08")) {
        return true;
      }
    }
    String message = t.getMessage();
    if (message == null) {
      return false;
    }
    String m = message.toLowerCase(Locale.ROOT);
    // HikariCP's acquisition timeout and a use of an evicted connection carry no SQLState.
    return m.contains("connection is not available, request timed out")
        || m.contains("connection is closed")
        || m.contains("connection refused");
  }
}
