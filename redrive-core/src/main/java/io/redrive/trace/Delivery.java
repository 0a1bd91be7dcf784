package io.redrive.trace;

import java.util.Map;

/**
 * A delivery about to be handled, for {@link MessageTracing#process}.
 *
 * @param queue the message's queue
 * @param messageId the message id
 * @param type the message type (handler name)
 * @param headers the message's headers, where a producer's trace context travels
 * @param attempt this delivery's number (1 for the first)
 * @param maxAttempts the queue's limit
 * @param worker the worker running it (as recorded in the attempt history)
 */
public record Delivery(
    String queue,
    String messageId,
    String type,
    Map<String, String> headers,
    int attempt,
    int maxAttempts,
    String worker) {

  public Delivery {
    headers = headers == null ? Map.of() : headers;
  }
}
