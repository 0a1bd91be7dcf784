package io.redrive.store;

import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.ImportResult;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.SettleResult;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueStats;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The storage contract every Redrive store implements, and the compliance suite pins.
 *
 * <p>Each method is one atomic step: it either fully happens or changes nothing, and it states its
 * precondition in its name ({@code ...IfLeased} acts only while the given token is the message's
 * current lease). Inputs arrive validated by the engine; every time-dependent method receives
 * {@code now} from the engine's clock, so a store never reads the wall clock itself.
 *
 * <p>Stores are thread-safe and may be shared by many threads and, for PostgreSQL, by many
 * processes on one database. They throw only {@link io.redrive.error.RedriveException}s: vendor
 * exceptions are wrapped in {@link io.redrive.error.StoreException} with their SQLState.
 *
 * <p>Leaky spot, admitted: the decisions that depend on a message's state at settle time (retry or
 * dead, where to dead-letter) are taken by {@link io.redrive.engine.DeliveryRules} inside the
 * store's transaction, so every store applies the same rules atomically.
 */
public interface Store extends AutoCloseable {

  // ---- queues ----

  /** Creates a queue; conflict if it exists; validates dead-letter references atomically. */
  Queue createQueue(CreateQueueParams params);

  /** Replaces a queue's policy (already merged by the engine) after validating references. */
  Queue updateQueue(UpdateQueueParams params);

  Optional<Queue> findQueue(String name);

  List<Queue> listQueues();

  /** Deletes a queue with its messages; conflict while another queue names it as DLQ. */
  void deleteQueue(String name);

  /** Pauses or resumes leasing from a queue. */
  Queue setPaused(String name, boolean paused, Instant now);

  // ---- producing ----

  /** Enqueues in a transaction of the store's own. */
  List<EnqueueResult> enqueue(EnqueueParams params);

  /**
   * Enqueues on the caller's connection inside the caller's transaction: visible on commit, gone on
   * rollback. The store neither commits nor closes the connection.
   */
  List<EnqueueResult> enqueue(Connection connection, EnqueueParams params);

  // ---- leasing and settling ----

  /**
   * Leases up to {@code max} visible messages in serve order, incrementing each one's attempts in
   * the same transaction. Messages whose next attempt would exceed {@code maxAttempts} are
   * dead-lettered as POISON and messages past their deadline as EXPIRED, instead of delivered.
   * Honours pause and the stream head rule.
   */
  LeaseResult leaseReady(LeaseParams params);

  /**
   * Completes the message if the token is its current lease and its deadline has not passed at
   * {@code now}; otherwise {@link io.redrive.error.LeaseLostException} (the same holds for every
   * {@code ...IfLeased} method: a lease whose message is past its deadline is lost).
   */
  SettleResult completeIfLeased(CompleteParams params);

  /**
   * Completes every message whose token is its current lease, in one transaction; tokens that are
   * not (lost, unknown, or past the message's deadline) are skipped, not errors. Returns the
   * results by message id of those completed.
   */
  Map<String, SettleResult> completeAllIfLeased(CompleteAllParams params);

  SettleResult failIfLeased(FailParams params);

  /**
   * Fails many leases in one transaction, each exactly as {@link #failIfLeased} would; a token that
   * is not the current lease of its message (lost, unknown) is skipped, not an error, and changes
   * nothing. Returns the results by message id of those failed.
   */
  Map<String, SettleResult> failAllIfLeased(FailAllParams params);

  SettleResult abandonIfLeased(AbandonParams params);

  /** Gives several leases back with their attempts refunded (cascade release). */
  List<SettleResult> releaseIfLeased(ReleaseParams params);

  /**
   * Gives back the messages a lease call took whose answer never reached its caller: every message
   * of {@code queue} still LEASED by lease batch {@code batch} ({@link LeaseParams#batch()}) and
   * not past its deadline gets a LEASE_UNDELIVERED history entry and is READY at {@code now} with
   * the attempt refunded, in one transaction, rows locked in id order. Messages of that batch
   * already settled, leased again by another batch or past their deadline (the sweep takes those)
   * are left as they are. Idempotent: a second call finds nothing. Returns the ids given back, in
   * id order.
   */
  List<String> releaseUndelivered(ReleaseUndeliveredParams params);

  /**
   * Extends a lease; returns the new expiry, which never passes the message's deadline (the lease
   * then ends at the deadline).
   */
  Instant renewIfLeased(RenewParams params);

  /**
   * OR-merges progress bits into a leased message at once, so finished steps survive a crash of the
   * attempt; returns the merged bits.
   */
  long recordProgressIfLeased(ProgressParams params);

  // ---- wake-ups ----

  /**
   * Calls {@code listener} (on a store thread; it must return quickly) when messages may have
   * become ready in {@code queue}: after an enqueue committed, in this process and, where the
   * database can tell (PostgreSQL NOTIFY), in other processes. A hint only: workers still poll.
   */
  ReadySubscription subscribeReady(String queue, Runnable listener);

  // ---- operating ----

  /**
   * The message with its history; READY shows as SCHEDULED while not yet visible at {@code now}.
   */
  Optional<Message> findMessage(String id, Instant now);

  /**
   * The queue of message {@code id}, empty when there is no such message: one narrow read (no
   * history, no lock), so a caller can check who may act on a message before the act itself.
   */
  Optional<String> findQueueOf(String id);

  MessagePage listMessages(MessageQuery query, Instant now);

  /** Up to {@code limit} message ids starting with {@code prefix}, in id order. */
  List<String> findIdsByPrefix(String prefix, int limit);

  /**
   * Up to {@code limit} ids of messages in {@code queue} starting with {@code prefix}, in id order:
   * how a caller limited to some queues resolves a prefix without learning other queues' ids.
   */
  List<String> findIdsByPrefix(String prefix, String queue, int limit);

  RetryResult retryDead(RetryParams params);

  /**
   * Makes SCHEDULED messages (READY, visible after {@code now}) visible at {@code now}, attempts
   * kept, with a RETRIED_NOW history entry; rows are locked in id order. Messages in any other
   * state are reported as skipped and left unchanged.
   */
  RetryResult retryScheduledNow(RetryNowParams params);

  RedriveResult redriveDead(RedriveParams params);

  DropResult dropMessages(DropParams params);

  ImportResult importMessages(ImportParams params);

  QueueStats stats(String queue, Instant now);

  /**
   * Dead-letters as EXPIRED, each the way its queue's dead-letter policy says, up to {@code limit}
   * messages whose deadline is at or before {@code now}: READY (also scheduled) and LEASED alike,
   * in paused queues too, earliest deadline first, in one transaction. Safe to run on many nodes at
   * once: a message another sweeper holds is skipped, and none is dead-lettered twice. Returns one
   * result per message dead-lettered.
   */
  List<SettleResult> expireDue(Instant now, int limit);

  /**
   * Forgets up to {@code limit} completion records (kept by a complete given a completion window)
   * of completions before {@code before}, oldest first; returns how many.
   */
  int deleteCompletions(Instant before, int limit);

  @Override
  void close();
}
