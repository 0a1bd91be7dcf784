package io.redrive.worker;

import io.redrive.failure.FailureReason;

/**
 * Maps what a handler threw to a {@link FailureReason}; the reason's default decides whether the
 * message is retried. Thread-safe. Start from {@link #defaults()} and add an application's own
 * mappings with {@link #with}.
 */
@FunctionalInterface
public interface FailureClassifier {

  FailureReason classify(Throwable error);

  /**
   * The defaults: validation problems (names containing {@code Validation} or {@code
   * ConstraintViolation}) → VALIDATION_FAILURE; deserialization problems (JSON processing, {@code
   * *Deserializ*}, invalid or unserializable classes) → SERIALIZATION_ERROR; timeouts →
   * DEPENDENCY_FAILURE; connection and I/O problems → TRANSPORT_UNAVAILABLE; transient SQL errors →
   * DEPENDENCY_FAILURE; anything else → HANDLER_EXCEPTION. The cause chain is searched, outermost
   * first.
   */
  static FailureClassifier defaults() {
    return DefaultFailureClassifier.INSTANCE;
  }

  /**
   * The dependency {@code error} was a failure against, or null for none: by default the one a
   * {@link DependencyFailureException} in the cause chain names. An application's classifier may
   * name more (e.g. its HTTP client's exception and host); a queue whose circuit breaker learns
   * derives one itself when none is named.
   */
  default String dependencyOf(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof DependencyFailureException d) {
        return d.dependency();
      }
    }
    return null;
  }

  /**
   * This classifier with {@code type} (and its subclasses, anywhere in the cause chain) mapped to
   * {@code reason} first.
   */
  default FailureClassifier with(Class<? extends Throwable> type, FailureReason reason) {
    if (type == null || reason == null) {
      throw new IllegalArgumentException("classifier mapping: type and reason are required");
    }
    FailureClassifier fallback = this;
    return error -> {
      for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
        if (type.isInstance(t)) {
          return reason;
        }
      }
      return fallback.classify(error);
    };
  }
}
