package io.redrive.worker;

import io.redrive.failure.FailureReason;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.StreamCorruptedException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientException;
import java.util.concurrent.TimeoutException;

/** The built-in classification (see {@link FailureClassifier#defaults()}), by type and name. */
final class DefaultFailureClassifier implements FailureClassifier {
  static final DefaultFailureClassifier INSTANCE = new DefaultFailureClassifier();
  private static final int MAX_DEPTH = 16;

  private DefaultFailureClassifier() {}

  @Override
  public FailureReason classify(Throwable error) {
    int depth = 0;
    for (Throwable t = error; t != null && depth < MAX_DEPTH; t = t.getCause(), depth++) {
      FailureReason reason = direct(t);
      if (reason != null) {
        return reason;
      }
    }
    return FailureReason.HANDLER_EXCEPTION;
  }

  private static FailureReason direct(Throwable t) {
    if (namedLike(t, "Validation") || namedLike(t, "ConstraintViolation")) {
      return FailureReason.VALIDATION_FAILURE;
    }
    if (t instanceof InvalidClassException
        || t instanceof NotSerializableException
        || t instanceof StreamCorruptedException
        || namedLike(t, "JsonProcessing")
        || namedLike(t, "JsonParse")
        || namedLike(t, "MismatchedInput")
        || namedLike(t, "Deserializ")) {
      return FailureReason.SERIALIZATION_ERROR;
    }
    if (t instanceof DependencyFailureException
        || t instanceof TimeoutException
        || t instanceof SocketTimeoutException
        || namedLike(t, "Timeout")) {
      return FailureReason.DEPENDENCY_FAILURE;
    }
    if (t instanceof ConnectException
        || t instanceof NoRouteToHostException
        || t instanceof UnknownHostException
        || t instanceof SQLNonTransientConnectionException
        || t instanceof IOException) {
      return FailureReason.TRANSPORT_UNAVAILABLE;
    }
    if (t instanceof SQLTransientException) {
      return FailureReason.DEPENDENCY_FAILURE;
    }
    return null;
  }

  /** True when the class or a superclass has {@code part} in its simple name. */
  private static boolean namedLike(Throwable t, String part) {
    for (Class<?> c = t.getClass(); c != null && c != Throwable.class; c = c.getSuperclass()) {
      if (c.getSimpleName().contains(part)) {
        return true;
      }
    }
    return false;
  }
}
