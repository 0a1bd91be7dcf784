package io.redrive.lease;

import java.time.Instant;
import java.util.Map;

/**
 * A message delivered under a lease: what a handler needs to run it and settle it.
 *
 * @param token the lease token; settle with it
 * @param id the message id
 * @param queue the queue
 * @param type the handler name
 * @param payload the body
 * @param headers the headers
 * @param stream the ordering key, or null
 * @param attempt this delivery's number (1 for the first)
 * @param maxAttempts the queue's limit
 * @param progress steps completed by earlier attempts
 * @param enqueuedAt when it was enqueued
 * @param leaseExpiresAt when the lease runs out unless renewed
 * @param priority the message's priority, 0–9 (see {@link io.redrive.queue.PriorityPolicy})
 * @param limitKey the key the queue's flow limits count it under, or null
 * @param readyAt when it became ready for this delivery: its visible time before the lease (the
 *     enqueue time plus any delay, when its retry came due, or when an earlier lease ran out), so
 *     {@code now - readyAt} is how long it waited in line
 */
public record LeasedMessage(
    String token,
    String id,
    String queue,
    String type,
    String payload,
    Map<String, String> headers,
    String stream,
    int attempt,
    int maxAttempts,
    long progress,
    Instant enqueuedAt,
    Instant leaseExpiresAt,
    int priority,
    String limitKey,
    Instant readyAt) {

  /** A delivery whose ready time is not known: taken as its enqueue time. */
  public LeasedMessage(
      String token,
      String id,
      String queue,
      String type,
      String payload,
      Map<String, String> headers,
      String stream,
      int attempt,
      int maxAttempts,
      long progress,
      Instant enqueuedAt,
      Instant leaseExpiresAt,
      int priority,
      String limitKey) {
    this(
        token,
        id,
        queue,
        type,
        payload,
        headers,
        stream,
        attempt,
        maxAttempts,
        progress,
        enqueuedAt,
        leaseExpiresAt,
        priority,
        limitKey,
        enqueuedAt);
  }

  /** A delivery of a message without a limit key. */
  public LeasedMessage(
      String token,
      String id,
      String queue,
      String type,
      String payload,
      Map<String, String> headers,
      String stream,
      int attempt,
      int maxAttempts,
      long progress,
      Instant enqueuedAt,
      Instant leaseExpiresAt,
      int priority) {
    this(
        token,
        id,
        queue,
        type,
        payload,
        headers,
        stream,
        attempt,
        maxAttempts,
        progress,
        enqueuedAt,
        leaseExpiresAt,
        priority,
        null);
  }

  /** A delivery of a priority-0 message. */
  public LeasedMessage(
      String token,
      String id,
      String queue,
      String type,
      String payload,
      Map<String, String> headers,
      String stream,
      int attempt,
      int maxAttempts,
      long progress,
      Instant enqueuedAt,
      Instant leaseExpiresAt) {
    this(
        token,
        id,
        queue,
        type,
        payload,
        headers,
        stream,
        attempt,
        maxAttempts,
        progress,
        enqueuedAt,
        leaseExpiresAt,
        0,
        null);
  }
}
