package io.redrive.worker;

import java.time.Duration;

/**
 * A handler bound to a message type, with an optional per-type timeout and failure classifier.
 *
 * @param type the message type it handles
 * @param handler the handler
 * @param timeout the longest one run may take before it is interrupted and failed as
 *     TIMEOUT_EXCEEDED, or null for none (leases are then renewed up to the worker's {@code
 *     maxRenewal})
 * @param classifier the classifier for this type, or null for the worker's
 */
public record HandlerRegistration(
    String type, Handler handler, Duration timeout, FailureClassifier classifier) {

  public HandlerRegistration {
    if (type == null || type.isBlank() || type.length() > 200) {
      throw new IllegalArgumentException("type: must be 1-200 characters, was \"" + type + "\"");
    }
    if (handler == null) {
      throw new IllegalArgumentException("handler: is required for type \"" + type + "\"");
    }
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException(
          "timeout: must be positive for type \"" + type + "\", was " + timeout);
    }
  }

  public static HandlerRegistration of(String type, Handler handler) {
    return new HandlerRegistration(type, handler, null, null);
  }

  public HandlerRegistration withTimeout(Duration value) {
    return new HandlerRegistration(type, handler, value, classifier);
  }

  public HandlerRegistration withClassifier(FailureClassifier value) {
    return new HandlerRegistration(type, handler, timeout, value);
  }
}
