package io.redrive.store;

import io.redrive.deadletter.DeadGroupPage;
import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.ImportResult;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.SettleResult;
import io.redrive.lease.SettledThenLeased;
import io.redrive.lease.Settlement;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueStats;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
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
 * <p><b>Stability.</b> This is a service-provider interface, not an application API: applications
 * call {@link io.redrive.Redrive}, which validates input, reads the clock and counts messages; only
 * store implementations and the compliance suite in {@code redrive-testkit} use this type. It may
 * change in any minor release (methods added, params records given fields) until 1.0, so a store
 * outside this repository must run the compliance suite of the same version. Every method takes one
 * params record (the values of one call) so that a field added later does not break existing
 * callers of the record's other constructors; a callback ({@link #subscribeReady}) and a single
 * name are the only positional arguments.
 *
 * <p><b>Errors.</b> Every method may throw {@link io.redrive.error.StoreException} when the
 * database fails (SQLState kept; {@code transient} for a connection that may come back), and every
 * method that writes in a transaction of its own may throw {@link
 * io.redrive.error.CommitUnknownException} when the COMMIT's answer was lost, in which case the
 * change may or may not have happened. The {@code @throws} of each method name the other {@link
 * io.redrive.error.RedriveException}s it throws; {@link IllegalArgumentException} means input the
 * engine could not validate alone (it needs the database, such as a dead-letter reference).
 *
 * <p>Leaky spot, admitted: the decisions that depend on a message's state at settle time (retry or
 * dead, where to dead-letter) are taken by {@link io.redrive.engine.DeliveryRules} inside the
 * store's transaction, so every store applies the same rules atomically.
 */
public interface Store extends AutoCloseable, FleetStore {

  // ---- queues ----

  /**
   * Creates a queue; conflict if it exists; validates dead-letter references atomically.
   *
   * @throws io.redrive.error.ConflictException {@code QUEUE_EXISTS} when the name is taken
   * @throws IllegalArgumentException when a dead-letter reference names a missing queue or loops
   */
  Queue createQueue(CreateQueueParams params);

  /**
   * Replaces a queue's policy (already merged by the engine) after validating references.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   * @throws IllegalArgumentException when a dead-letter reference names a missing queue or loops
   */
  Queue updateQueue(UpdateQueueParams params);

  /** The queue, or empty when there is none of that name. */
  Optional<Queue> findQueue(String name);

  /** Every queue, in name order. */
  List<Queue> listQueues();

  /**
   * Deletes a queue with its messages; conflict while another queue names it as DLQ.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   * @throws io.redrive.error.ConflictException {@code QUEUE_IN_USE} while another queue
   *     dead-letters into it
   */
  void deleteQueue(String name);

  /**
   * Pauses or resumes leasing from a queue.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   */
  Queue setPaused(PauseParams params);

  // ---- producing ----

  /**
   * Enqueues in a transaction of the store's own. A message with a {@code uniqueKey} whose key a
   * waiting message of its queue holds (READY, never leased) is kept or replaces that message's
   * content, decided in this transaction and exact under concurrent enqueues; a holder leased since
   * gives the key up to the new message (docs/engine.md, "Unique and debounced messages").
   *
   * @throws io.redrive.error.QueueNotFoundException when a message names a missing queue (then none
   *     is enqueued)
   * @throws IllegalArgumentException when a replacing message's type differs from the waiting
   *     message's (then none is enqueued)
   */
  List<EnqueueResult> enqueue(EnqueueParams params);

  /**
   * Enqueues on the caller's connection inside the caller's transaction: visible on commit, gone on
   * rollback. The store neither commits nor closes the connection (so it never throws {@link
   * io.redrive.error.CommitUnknownException}).
   *
   * @throws io.redrive.error.QueueNotFoundException when a message names a missing queue
   */
  List<EnqueueResult> enqueue(Connection connection, EnqueueParams params);

  // ---- leasing and settling ----

  /**
   * Leases up to {@code max} visible messages in serve order, incrementing each one's attempts in
   * the same transaction. Messages whose next attempt would exceed {@code maxAttempts} are
   * dead-lettered as POISON and messages past their deadline as EXPIRED, instead of delivered.
   * Honours pause and the stream head rule. With {@link LeaseParams#types} given, only messages of
   * those types are candidates (serve order kept among them); no other message is delivered, killed
   * or changed, though an earlier message of another type still blocks its stream.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   */
  LeaseResult leaseReady(LeaseParams params);

  /**
   * Settles leases, each {@link io.redrive.lease.SettleCommand} (complete, fail, abandon, release)
   * exactly as its kind says, all in one transaction, and answers one {@link
   * io.redrive.lease.Settlement} per command in the commands' order. A command settles only while
   * its token is the message's current lease and the message is not past its deadline at {@code
   * now}; otherwise it is lost and changes nothing: {@code NOT_FOUND} when no message has the
   * token's id, {@code NOT_CURRENT} when the message has another lease or none or is past its
   * deadline, {@code DUPLICATE} when an earlier command of the call named the same message. Within
   * the completion window a complete whose message this very token already completed is answered as
   * completed with {@code repeated} set. A failure retries after the queue's backoff or is
   * dead-lettered ({@link io.redrive.engine.DeliveryRules}); an abandon makes the message visible
   * after its delay; a release makes it ready at once with the attempt refunded.
   *
   * @throws io.redrive.error.LeaseNotFoundException when {@code allOrNothing} and a command is lost
   *     as NOT_FOUND (then nothing is settled)
   * @throws io.redrive.error.LeaseLostException when {@code allOrNothing} and a command is lost
   *     otherwise (then nothing is settled)
   */
  List<Settlement> settle(SettleParams params);

  /**
   * Settles as {@link #settle} does, then leases as {@link #leaseReady} does, and answers both. A
   * store that can do both in one transaction should: a worker under load calls this for every
   * batch, and one commit instead of two is what it saves. This default runs them one after the
   * other, each in its own transaction, so a lease that fails leaves the settles committed.
   *
   * @throws io.redrive.error.QueueNotFoundException when the lease's queue does not exist (in one
   *     transaction, nothing is settled then either)
   */
  default SettledThenLeased settleThenLease(SettleParams settle, LeaseParams lease) {
    List<Settlement> settled = settle(settle);
    return new SettledThenLeased(settled, leaseReady(lease));
  }

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
   *
   * @throws io.redrive.error.LeaseNotFoundException when no message has the token's id
   * @throws io.redrive.error.LeaseLostException when the token is not the message's current lease
   *     or the message is past its deadline
   */
  Instant renewIfLeased(RenewParams params);

  /**
   * OR-merges progress bits into a leased message at once, so finished steps survive a crash of the
   * attempt; returns the merged bits.
   *
   * @throws io.redrive.error.LeaseNotFoundException when no message has the token's id
   * @throws io.redrive.error.LeaseLostException when the token is not the message's current lease
   *     or the message is past its deadline
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
   * The message with its history, or empty when there is none; READY shows as SCHEDULED while not
   * yet visible at {@code now}.
   */
  Optional<Message> findMessage(FindMessageParams params);

  /**
   * The queue of message {@code id}, empty when there is no such message: one narrow read (no
   * history, no lock), so a caller can check who may act on a message before the act itself.
   *
   * @throws io.redrive.error.StoreException when the store cannot answer
   */
  Optional<String> findQueueOf(String id);

  /**
   * The message {@code id} (when stored), every stored message copied from it (whose {@code
   * sourceId} is {@code id}: dead-letter copies, imports) and every stored dead-letter copy whose
   * story began with it ({@code originId}), as links without payload or history, each once, in the
   * order they were stored; empty when there are none. Three indexed reads.
   *
   * @throws io.redrive.error.StoreException when the store cannot answer
   */
  List<io.redrive.message.MessageLink> findLinks(String id);

  /**
   * One page of a queue's messages matching the query, in id order.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   * @throws IllegalArgumentException when the query's cursor is not one this store handed out
   */
  MessagePage listMessages(ListMessagesParams params);

  /**
   * One page of the dead-letter groups of the query's queues: dead messages counted by queue and
   * {@link io.redrive.deadletter.Fingerprint} key in the database (never loaded one by one),
   * largest group first, then by key and queue; each group with its first and last death, its
   * latest message and that message's cause. Every dead message is in exactly one group: a message
   * dead since before the store stored fingerprints is fingerprinted (from its history) before the
   * groups are counted. Queues that do not exist have no groups.
   */
  DeadGroupPage groupDead(GroupDeadParams params);

  /**
   * Up to {@code limit} message ids starting with {@code prefix}, in id order, of one queue when
   * the params name one ({@link IdPrefixParams}).
   */
  List<String> findIdsByPrefix(IdPrefixParams params);

  /**
   * Puts DEAD messages back to READY at {@code now} with attempts reset and a RETRIED history
   * entry, rows locked in id order; messages not dead are reported as skipped, missing ids as not
   * found.
   */
  RetryResult retryDead(RetryParams params);

  /**
   * Makes SCHEDULED messages (READY, visible after {@code now}) visible at {@code now}, attempts
   * kept, with a RETRIED_NOW history entry; rows are locked in id order. Messages in any other
   * state are reported as skipped and left unchanged.
   */
  RetryResult retryScheduledNow(RetryNowParams params);

  /**
   * Moves dead messages of one queue to another (or back where they died), as the request says.
   *
   * @throws io.redrive.error.QueueNotFoundException when the source or a named target queue does
   *     not exist
   */
  RedriveResult redriveDead(RedriveParams params);

  /**
   * Deletes messages with their history, by id or by a filter on one queue; ids that do not exist
   * are reported, not errors.
   *
   * @throws io.redrive.error.QueueNotFoundException when a filter names a missing queue
   */
  DropResult dropMessages(DropParams params);

  /**
   * Imports messages from another system into a queue with new ids and an IMPORTED history entry;
   * one whose source id was imported before is reported as a duplicate and not imported again.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   */
  ImportResult importMessages(ImportParams params);

  /**
   * Counts of a queue's messages by state at {@code now}.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   */
  QueueStats stats(StatsParams params);

  /**
   * Where a queue stands against its flow limits at {@code now}: running messages, limit keys at
   * their cap and keys held by a slow-down.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   */
  io.redrive.queue.FlowStatus flowStatus(StatsParams params);

  /**
   * The circuits of a queue's dependencies as they stand at {@code now} (a half-open circuit's
   * waves moved on by the time), by dependency, each with its last changes; empty when nothing has
   * failed against a dependency of it.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   */
  List<io.redrive.queue.CircuitStatus> circuits(StatsParams params);

  /**
   * Opens or closes the circuit of a dependency by hand, under the queue row's lock. Opened by hand
   * it holds every message that needs the dependency (no probes) until closed by hand; closed, the
   * messages flow again and its failures count afresh. Works on any queue with a circuit breaker,
   * whether or not the dependency has failed yet.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   * @throws IllegalArgumentException when the queue has no circuit breaker
   */
  io.redrive.queue.CircuitStatus setCircuit(CircuitParams params);

  /**
   * The workers holding leases on a queue now, one entry per worker and message type, by worker
   * then type; empty when nothing is leased. One indexed read of the queue's leased messages.
   *
   * @throws io.redrive.error.QueueNotFoundException when the queue does not exist
   */
  List<io.redrive.lease.LeaseHolder> leaseHolders(LeaseHoldersParams params);

  /**
   * Dead-letters as EXPIRED, each the way its queue's dead-letter policy says, up to {@code limit}
   * messages whose deadline is at or before {@code now}: READY (also scheduled) and LEASED alike,
   * in paused queues too, earliest deadline first, in one transaction. Safe to run on many nodes at
   * once: a message another sweeper holds is skipped, and none is dead-lettered twice. Returns one
   * result per message dead-lettered.
   */
  List<SettleResult> expireDue(ExpireParams params);

  /**
   * Forgets up to {@code limit} completion records (kept by a complete given a completion window)
   * of completions before {@code before}, oldest first; returns how many.
   */
  int deleteCompletions(DeleteCompletionsParams params);

  // ---- throughput ----

  /**
   * One point per minute from {@code from} to {@code to} (both truncated to the minute, both
   * included), in time order, of the named queues summed (every queue when null): the counters
   * written by the transactions that enqueued, completed, failed and killed messages, summed over
   * their slots, and the depth snapshot of the minute (summed over the queues that have one; null
   * when none). Minutes with nothing recorded come back as zeros with no depth. Counters are
   * written inside the transactions that do the work, so they are exact on any number of nodes.
   */
  List<io.redrive.queue.ThroughputPoint> throughput(ThroughputParams params);

  /**
   * Records every queue's depth by state at {@code now} as the snapshot of {@code now}'s minute,
   * unless that minute has one already: many nodes may call this every sweep, the first writer of a
   * minute wins and the others write nothing. Returns the rows written.
   */
  int recordDepth(DepthSnapshotParams params);

  /** Deletes the throughput counters and depth snapshots of minutes before {@code before}. */
  int deleteThroughput(DeleteThroughputParams params);

  @Override
  void close();
}
