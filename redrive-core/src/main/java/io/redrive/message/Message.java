package io.redrive.message;

import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A message as an operator sees it: its content, state, counters and full history.
 *
 * @param id unique, time-ordered id (kept across retries and lease expiries)
 * @param queue the queue it is in
 * @param type the handler name it is addressed to
 * @param payload the body, as given
 * @param headers string headers
 * @param stream the ordering key, or null
 * @param state the current state (READY shown as SCHEDULED while not yet visible)
 * @param attempts deliveries so far
 * @param maxAttempts the queue's current limit
 * @param progress bitmask of completed steps, OR-merged across attempts
 * @param enqueuedAt when it entered this queue
 * @param visibleAt when it may next be leased (for LEASED: when the lease runs out)
 * @param expireAt deadline after which it dies as EXPIRED, or null
 * @param leasedBy the worker holding the current lease, or null
 * @param deadReason why it died, for DEAD messages
 * @param deadAt when it died
 * @param completedAt when it completed, for a COMPLETED message its queue kept (see {@link
 *     io.redrive.queue.QueuePolicy#completedRetention}), else null
 * @param sourceId the id it had in its source queue (dead-letter copies and imports), or null
 * @param sourceQueue the queue it came from (dead-letter copies), or null
 * @param dedupeKey the producer's deduplication key, or null
 * @param lastError the failure of the most recent history entry that has one, or null (also filled
 *     on list pages, which come without history)
 * @param history every delivery and operator action, oldest first (empty on list pages)
 * @param sourceAttempts for a dead-letter copy, the attempts it had used in its source queue when
 *     it was moved here (its own {@code attempts} start again at 0), read from its latest move;
 *     null for a message that was not moved from another queue (also filled on list pages)
 * @param priority 0–9, higher served first (see {@link io.redrive.queue.PriorityPolicy})
 * @param limitKey the key the queue's flow limits count it under, or null
 * @param uniqueKey the unique key it holds while waiting (enqueued, not yet leased), else null
 */
public record Message(
    String id,
    String queue,
    String type,
    String payload,
    Map<String, String> headers,
    String stream,
    MessageState state,
    int attempts,
    int maxAttempts,
    long progress,
    Instant enqueuedAt,
    Instant visibleAt,
    Instant expireAt,
    String leasedBy,
    FailureReason deadReason,
    Instant deadAt,
    Instant completedAt,
    String sourceId,
    String sourceQueue,
    String dedupeKey,
    FailureRecord lastError,
    List<HistoryEntry> history,
    Integer sourceAttempts,
    int priority,
    String limitKey,
    String uniqueKey) {

  /** A message of priority 0 without a limit key or a unique key. */
  public Message(
      String id,
      String queue,
      String type,
      String payload,
      Map<String, String> headers,
      String stream,
      MessageState state,
      int attempts,
      int maxAttempts,
      long progress,
      Instant enqueuedAt,
      Instant visibleAt,
      Instant expireAt,
      String leasedBy,
      FailureReason deadReason,
      Instant deadAt,
      Instant completedAt,
      String sourceId,
      String sourceQueue,
      String dedupeKey,
      FailureRecord lastError,
      List<HistoryEntry> history,
      Integer sourceAttempts) {
    this(
        id,
        queue,
        type,
        payload,
        headers,
        stream,
        state,
        attempts,
        maxAttempts,
        progress,
        enqueuedAt,
        visibleAt,
        expireAt,
        leasedBy,
        deadReason,
        deadAt,
        completedAt,
        sourceId,
        sourceQueue,
        dedupeKey,
        lastError,
        history,
        sourceAttempts,
        0,
        null,
        null);
  }

  /**
   * The attempts used in the source queue by a copy moved from {@code sourceQueue} into {@code
   * queue}: the attempt of the latest {@code DEAD_LETTERED} entry of {@code history}, or null when
   * it did not move from another queue.
   */
  public static Integer sourceAttemptsOf(
      String queue, String sourceQueue, List<HistoryEntry> history) {
    if (sourceQueue == null || sourceQueue.equals(queue)) {
      return null;
    }
    for (int i = history.size() - 1; i >= 0; i--) {
      if (history.get(i).outcome() == Outcome.DEAD_LETTERED) {
        return history.get(i).attempt();
      }
    }
    return null;
  }

  /** The failure of the most recent entry of {@code history} that has one, or null. */
  public static FailureRecord lastErrorOf(List<HistoryEntry> history) {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (history.get(i).failure() != null) {
        return history.get(i).failure();
      }
    }
    return null;
  }
}
