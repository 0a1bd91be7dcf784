package io.redrive;

import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.deadletter.DeadGroup;
import io.redrive.deadletter.DeadGroupPage;
import io.redrive.deadletter.DeadGroupQuery;
import io.redrive.deadletter.DropFilter;
import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.ImportResult;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.error.CommitUnknownException;
import io.redrive.error.ConflictException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.error.QueueNotFoundException;
import io.redrive.internal.workflow.WorkflowStores;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.CompleteAllResult;
import io.redrive.lease.FailAllResult;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseHolder;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettleResult;
import io.redrive.lease.SettledThenLeased;
import io.redrive.lease.Settlement;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Lineage;
import io.redrive.message.Message;
import io.redrive.message.MessageIds;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.SearchHit;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueDeclaration;
import io.redrive.queue.QueueNames;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.queue.QueueUpdate;
import io.redrive.queue.ThroughputPoint;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.store.CreateQueueParams;
import io.redrive.store.DeleteCompletionsParams;
import io.redrive.store.DeleteThroughputParams;
import io.redrive.store.DepthSnapshotParams;
import io.redrive.store.DropParams;
import io.redrive.store.EnqueueParams;
import io.redrive.store.ExpireParams;
import io.redrive.store.FindMessageParams;
import io.redrive.store.GroupDeadParams;
import io.redrive.store.IdPrefixParams;
import io.redrive.store.ImportParams;
import io.redrive.store.LeaseHoldersParams;
import io.redrive.store.LeaseParams;
import io.redrive.store.ListMessagesParams;
import io.redrive.store.PauseParams;
import io.redrive.store.ProgressParams;
import io.redrive.store.ReadySubscription;
import io.redrive.store.RedriveParams;
import io.redrive.store.RenewParams;
import io.redrive.store.RetryNowParams;
import io.redrive.store.RetryParams;
import io.redrive.store.StatsParams;
import io.redrive.store.Store;
import io.redrive.store.ThroughputParams;
import io.redrive.store.UpdateQueueParams;
import io.redrive.time.DurationText;
import io.redrive.trace.MessageTracing;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The Redrive engine: queue administration, enqueue, lease and settle, and operator actions over
 * one {@link Store}, with time read from an injected {@link Clock}.
 *
 * <p>Every method validates its input first and throws {@link IllegalArgumentException} naming the
 * field and value, before anything is changed. Thread-safe; create one per store and share it.
 */
public final class Redrive implements AutoCloseable {
  /** How long a completed message is remembered by default. */
  public static final Duration DEFAULT_COMPLETION_WINDOW = Duration.ofMinutes(5);

  /**
   * How long a ready type may wait with no live worker before it is unserved, by default: 5 min
   * (docs/engine.md, "Live workers and unserved types").
   */
  public static final Duration DEFAULT_UNSERVED_AFTER = Duration.ofMinutes(5);

  /** The longest completion window. */
  public static final Duration MAX_COMPLETION_WINDOW = Duration.ofDays(7);

  /** The longest window {@link #throughput(String, Duration)} reads: 24 hours. */
  public static final Duration MAX_THROUGHPUT_WINDOW = Duration.ofHours(24);

  private final Store store;
  private final Clock clock;
  private final Validation validation;
  private final UnregisteredHandlerFailures unregistered;
  private final EngineMetrics metrics;
  private final Duration completionWindow;
  private final Duration completedRetention;
  private final CallerTransactions callerTransactions;
  private final LostLeases lostLeases;
  private final EngineLiveness liveness;
  private final Settles settles;
  private final MessageTracing tracing;
  private final Schedules schedules;
  private final Objectives objectives;
  private final LiveWorkers liveWorkers;
  private final UnservedTypes unservedTypes;

  static {
    WorkflowStores.install(new WorkflowDoor());
  }

  private Redrive(Builder b) {
    this.completionWindow = b.completionWindow;
    this.completedRetention = b.completedRetention;
    this.callerTransactions = b.callerTransactions;
    this.store = b.store;
    this.clock = b.clock;
    this.validation = new Validation(b.maxPayloadBytes);
    this.unservedTypes = new UnservedTypes(b.store, b.unservedAfter, b.meterRegistry);
    this.liveWorkers = new LiveWorkers(b.store);
    this.unregistered =
        new UnregisteredHandlerFailures(b.store, b.unregisteredBackoff, unservedTypes);
    this.metrics = new EngineMetrics(b.meterRegistry);
    this.lostLeases = new LostLeases(b.store, b.clock);
    this.liveness = new EngineLiveness(b.store, b.clock);
    this.tracing = b.tracing;
    this.schedules = new Schedules(b.store, b.clock, validation, b.completionWindow, metrics);
    this.objectives = new Objectives(b.store, b.clock);
    this.settles =
        new Settles(
            b.store,
            b.clock,
            validation,
            unregistered,
            metrics,
            b.completionWindow,
            b.completedRetention);
  }

  /** Starts building an engine over a store. */
  public static Builder builder(Store store) {
    return new Builder(store);
  }

  /**
   * One round trip to the store, for readiness checks: returns when the store answered, throws when
   * it could not (a {@link io.redrive.error.StoreException} for a database that is down).
   * Unbounded: a caller that must answer quickly runs it on a thread of its own and waits as long
   * as it may.
   */
  public void ping() {
    store.findQueue("ready-probe");
  }

  /**
   * Calls {@code listener} (on a store thread; it must return quickly) when messages may have
   * become ready in {@code queue}: after an enqueue committed, in this process and, where the
   * database can tell (PostgreSQL NOTIFY), in other processes. A hint only: pollers still poll.
   * Close the subscription to stop.
   */
  public ReadySubscription subscribeReady(String queue, Runnable listener) {
    return store.subscribeReady(queue, listener);
  }

  /** The recurring schedules of this engine's store (docs/engine.md, "Recurring schedules"). */
  public Schedules schedules() {
    return schedules;
  }

  /** The queue-age objectives of this engine's store (docs/engine.md, "Objectives"). */
  public Objectives objectives() {
    return objectives;
  }

  /** The clock every decision reads. */
  public Clock clock() {
    return clock;
  }

  /**
   * What enqueues and workers tell about messages for tracing (see {@link Builder#tracing}); {@link
   * MessageTracing#NONE} unless set.
   */
  public MessageTracing tracing() {
    return tracing;
  }

  /** The largest payload (UTF-8 bytes) a message may carry. */
  public int maxPayloadBytes() {
    return validation.maxPayloadBytes();
  }

  private Instant now() {
    return clock.instant();
  }

  // ---- queues ----

  /** Creates a queue; {@link ConflictException} {@code QUEUE_EXISTS} if it exists. */
  public Queue createQueue(String name, QueuePolicy policy) {
    QueueNames.require("name", name);
    if (policy == null) {
      throw new IllegalArgumentException("policy: is required");
    }
    validation.deadLetterNotSelf(name, policy);
    return store.createQueue(new CreateQueueParams(name, policy, now()));
  }

  /** Creates a queue with the default policy. */
  public Queue createQueue(String name) {
    return createQueue(name, QueuePolicy.defaults());
  }

  /** Merges {@code update} into the queue's policy: fields not given keep their value. */
  public Queue updateQueue(String name, QueueUpdate update) {
    QueueNames.require("name", name);
    if (update == null) {
      throw new IllegalArgumentException("update: is required");
    }
    if (update.deadLetter() != null
        && update.deadLetter().queue() != null
        && update.deadLetter().queue().equals(name)) {
      throw Validation.selfDeadLetter(name);
    }
    return store.updateQueue(new UpdateQueueParams(name, update, now()));
  }

  /**
   * Makes the queue exist with {@code policy}: creates it, or brings an existing queue's policy to
   * exactly {@code policy} (its paused flag and messages stay). Idempotent and safe to run on every
   * boot of many nodes at once: a node that loses the race to create updates instead.
   */
  public QueueDeclaration declareQueue(String name, QueuePolicy policy) {
    if (policy == null) {
      throw new IllegalArgumentException("policy: is required");
    }
    return declareQueue(name, QueueUpdate.everyField(policy));
  }

  /**
   * Makes the queue exist with the fields {@code declared} names: creates it with the defaults plus
   * those fields, or merges them into an existing queue's policy (fields not named keep their
   * value). Idempotent and safe to run on many nodes at once.
   */
  public QueueDeclaration declareQueue(String name, QueueUpdate declared) {
    QueueNames.require("name", name);
    if (declared == null) {
      throw new IllegalArgumentException("declared: is required");
    }
    QueueDeclaration found = createIfMissing(name, declared.applyTo(QueuePolicy.defaults()), false);
    if (found.outcome() == QueueDeclaration.Outcome.CREATED) {
      return found;
    }
    Queue current = found.queue();
    if (declared.applyTo(current.policy()).equals(current.policy())) {
      return found;
    }
    return new QueueDeclaration(updateQueue(name, declared), QueueDeclaration.Outcome.UPDATED);
  }

  /**
   * The one create path of {@link #declareQueue} and of workflow-owned activity queues: creates the
   * queue with {@code policy} (CREATED), or answers the existing one (UNCHANGED), also when another
   * node created it since we looked.
   */
  private QueueDeclaration createIfMissing(String name, QueuePolicy policy, boolean workflowOwned) {
    Optional<Queue> existing = store.findQueue(name);
    if (existing.isPresent()) {
      return new QueueDeclaration(existing.get(), QueueDeclaration.Outcome.UNCHANGED);
    }
    validation.deadLetterNotSelf(name, policy);
    try {
      return new QueueDeclaration(
          store.createQueue(new CreateQueueParams(name, policy, workflowOwned, now())),
          QueueDeclaration.Outcome.CREATED);
    } catch (ConflictException e) {
      if (!ConflictException.QUEUE_EXISTS.equals(e.code())) {
        throw e;
      }
      // Another node created it since we looked: theirs stands, like any existing queue.
      return new QueueDeclaration(getQueue(name), QueueDeclaration.Outcome.UNCHANGED);
    }
  }

  /** The workflow module's door (WorkflowStores), the only one through which the store leaves. */
  private static final class WorkflowDoor implements WorkflowStores.Engine {
    @Override
    public Store storeOf(Redrive redrive) {
      return redrive.store;
    }

    @Override
    public Connection joinFor(Redrive redrive, Connection given) {
      return redrive.joinFor(given);
    }

    @Override
    public void leave(Redrive redrive, Connection joined) {
      redrive.callerTransactions.leave(joined);
    }

    @Override
    public QueueDeclaration declareWorkflowOwned(Redrive redrive, String name, QueuePolicy policy) {
      QueueNames.require("name", name);
      if (policy == null) {
        throw new IllegalArgumentException("policy: is required");
      }
      return redrive.createIfMissing(name, policy, true);
    }
  }

  /** The queue, or {@link QueueNotFoundException}. */
  public Queue getQueue(String name) {
    QueueNames.require("name", name);
    return store.findQueue(name).orElseThrow(() -> new QueueNotFoundException(name));
  }

  public List<Queue> listQueues() {
    return store.listQueues();
  }

  /**
   * Deletes a queue and its messages; refused while another queue names it as dead-letter queue.
   */
  public void deleteQueue(String name) {
    QueueNames.require("name", name);
    store.deleteQueue(name);
  }

  /** Stops leasing from the queue (enqueue still works). */
  public Queue pauseQueue(String name) {
    QueueNames.require("name", name);
    return store.setPaused(new PauseParams(name, true, now()));
  }

  public Queue resumeQueue(String name) {
    QueueNames.require("name", name);
    return store.setPaused(new PauseParams(name, false, now()));
  }

  // ---- producing ----

  public EnqueueResult enqueue(NewMessage message) {
    return enqueueBatch(List.of(requireMessage(message))).get(0);
  }

  /**
   * Enqueues up to 1000 messages in one transaction (all or nothing): its own, or the application's
   * transaction in progress when the engine has {@link CallerTransactions} that find one.
   */
  public List<EnqueueResult> enqueueBatch(List<NewMessage> messages) {
    Connection joined = joinFor(null);
    if (joined != null) {
      return enqueueJoined(joined, messages);
    }
    return TraceHeaders.publish(
        tracing,
        messages,
        carried -> {
          List<EnqueueResult> results = store.enqueue(enqueueParams(carried));
          metrics.enqueued(carried, results);
          return results;
        });
  }

  private List<EnqueueResult> enqueueJoined(Connection joined, List<NewMessage> messages) {
    try {
      return enqueueOn(joined, messages);
    } finally {
      callerTransactions.leave(joined);
    }
  }

  /** Enqueues on {@code connection} (a caller's transaction), traced and counted. */
  private List<EnqueueResult> enqueueOn(Connection connection, List<NewMessage> messages) {
    return TraceHeaders.publish(
        tracing,
        messages,
        carried -> {
          List<EnqueueResult> results = store.enqueue(connection, enqueueParams(carried));
          metrics.enqueued(carried, results);
          return results;
        });
  }

  /**
   * Enqueues on the caller's connection, inside the caller's transaction: the message is visible
   * when the caller commits and gone if it rolls back. The connection must reach the store's
   * database; it is neither committed nor closed here.
   */
  public EnqueueResult enqueue(Connection connection, NewMessage message) {
    return enqueueBatch(connection, List.of(requireMessage(message))).get(0);
  }

  /**
   * As {@link #enqueue(Connection, NewMessage)}, for up to 1000 messages. A connection in
   * auto-commit mode while {@link CallerTransactions} find a transaction in progress is not used:
   * the messages join that transaction instead, as they would without a connection.
   */
  public List<EnqueueResult> enqueueBatch(Connection connection, List<NewMessage> messages) {
    if (connection == null) {
      throw new IllegalArgumentException("connection: is required");
    }
    Connection joined = joinFor(connection);
    if (joined != null) {
      return enqueueJoined(joined, messages);
    }
    return enqueueOn(connection, messages);
  }

  /**
   * The connection of the application's transaction in progress that a write given {@code given}
   * (null: none) joins instead, or null to go on as asked: without a connection, or with one in
   * auto-commit mode (taken beside the transaction), the transaction {@link CallerTransactions}
   * find; a connection in a transaction of its own is used as given. A non-null answer goes back to
   * {@link CallerTransactions#leave} once used.
   */
  private Connection joinFor(Connection given) {
    if (callerTransactions == CallerTransactions.NONE || (given != null && !autoCommits(given))) {
      return null;
    }
    return callerTransactions.join();
  }

  private static boolean autoCommits(Connection connection) {
    try {
      return connection.getAutoCommit();
    } catch (java.sql.SQLException e) {
      return false; // the enqueue on it reports the broken connection
    }
  }

  private static NewMessage requireMessage(NewMessage message) {
    if (message == null) {
      throw new IllegalArgumentException("message: is required");
    }
    return message;
  }

  private EnqueueParams enqueueParams(List<NewMessage> messages) {
    validation.batch(messages);
    return new EnqueueParams(
        messages.stream().map(m -> new EnqueueParams.Entry(MessageIds.next(clock), m)).toList(),
        now(),
        completionWindow);
  }

  // ---- leasing and settling ----

  /**
   * Leases up to {@code max} messages. Attempts are counted here; a message whose next delivery
   * would exceed {@code maxAttempts} is dead-lettered as POISON instead (listed in the result).
   * With {@link LeaseRequest#types} given, only messages of those types are leased (or killed at
   * lease); the queue's other messages are not touched.
   *
   * <p>When the lease's answer is lost ({@link CommitUnknownException}: it may have committed), the
   * messages it may have taken are given back at once, READY with the attempt refunded and a
   * LEASE_UNDELIVERED history entry; if that fails too, {@link #releaseUndelivered()} (run by
   * {@link io.redrive.maintenance.Maintenance}) tries again. The caller still gets the exception
   * and simply leases again. Should this process stop before the give-back, the lease timeout
   * brings the messages back (the attempt then stays counted).
   */
  public LeaseResult lease(LeaseRequest request) {
    validation.lease(request);
    keepAlive();
    liveness.beatIfDue();
    Instant now = now();
    String batch = UUID.randomUUID().toString();
    LeaseResult result;
    try {
      result = store.leaseReady(leaseParams(request, now, batch));
    } catch (CommitUnknownException e) {
      lostLeases.giveBack(request.queue(), batch, e);
      throw e;
    }
    liveWorkers.leased(request, now);
    metrics.leased(request.queue(), result, now);
    return result;
  }

  /**
   * Settles many leases in one store transaction, any mix of completes, fails, abandons and
   * releases, and answers one {@link Settlement} per command in order: what it did, or why the
   * lease was lost (a lost lease is answered, not thrown, and changes nothing; a second command for
   * the same message in one call is lost as DUPLICATE). Each command is settled exactly as the
   * single-lease method of its kind would; at most 1000 commands, all checked before anything
   * changes. Failures with reason UNREGISTERED_HANDLER are abandoned as {@link #fail} says, each in
   * its own transaction.
   */
  public List<Settlement> settle(List<SettleCommand> commands) {
    for (SettleCommand c : commands) {
      if (c instanceof SettleCommand.Complete complete && complete.result() != null) {
        validation.result(complete.result());
      }
    }
    return settles.each(commands);
  }

  /**
   * Settles, then leases, as {@link #settle} and {@link #lease} would one after the other, in one
   * store transaction where the store allows (both bundled stores do): what a worker does after a
   * batch, for one commit instead of two. When the lease fails, nothing is settled either in one
   * transaction (the settles' leases stay held, and may be settled again); an answer lost after the
   * commit may have settled and leased, and the lease is given back as {@link #lease} says.
   * Failures with reason UNREGISTERED_HANDLER make it two calls, as {@link #settle} says.
   */
  public SettledThenLeased settleThenLease(List<SettleCommand> commands, LeaseRequest request) {
    validation.lease(request);
    for (SettleCommand c : commands) {
      if (c instanceof SettleCommand.Complete complete && complete.result() != null) {
        validation.result(complete.result());
      }
    }
    if (commands.isEmpty()) {
      return new SettledThenLeased(List.of(), lease(request));
    }
    keepAlive();
    liveness.beatIfDue();
    Instant now = now();
    String batch = UUID.randomUUID().toString();
    SettledThenLeased done;
    try {
      done = settles.thenLease(commands, leaseParams(request, now, batch));
    } catch (CommitUnknownException e) {
      lostLeases.giveBack(request.queue(), batch, e);
      throw e;
    }
    if (done == null) {
      return new SettledThenLeased(settles.each(commands), lease(request));
    }
    liveWorkers.leased(request, now);
    metrics.leased(request.queue(), done.lease(), now);
    return done;
  }

  private LeaseParams leaseParams(LeaseRequest request, Instant now, String batch) {
    return new LeaseParams(
        request.queue(),
        request.worker(),
        request.max(),
        request.leaseTimeout(),
        now,
        batch,
        request.types(),
        liveness.witness());
  }

  /** Completes a leased message; it leaves the queue. */
  public SettleResult complete(String token) {
    return complete(token, 0L);
  }

  /**
   * Completes a leased message. {@code progress} is accepted for symmetry with {@link #fail} and
   * {@link #recordProgress}; a completed message leaves the queue, so it is not kept.
   */
  public SettleResult complete(String token, long progress) {
    return settles.one(new SettleCommand.Complete(LeaseToken.parse(token))).orThrow();
  }

  /**
   * Completes a leased message of a workflow-owned queue with its handler's result (JSON, at most
   * the payload limit), which the message's workflow instance receives with the end of the message;
   * a plain queue keeps no result and completes as {@link #complete(String)}.
   *
   * @throws IllegalArgumentException when the result is missing, too large or not valid JSON;
   *     nothing changes
   */
  public SettleResult completeWithResult(String token, String resultJson) {
    validation.result(resultJson);
    return settles.one(new SettleCommand.Complete(LeaseToken.parse(token), resultJson)).orThrow();
  }

  /**
   * Completes many leases in one store transaction (one statement on both stores). Tokens that no
   * longer hold their message are reported as lost, not thrown; at most 1000 tokens. A token named
   * twice is listed as its first naming was.
   */
  public CompleteAllResult completeAll(List<String> tokens) {
    Validation.sized("tokens", "lease token", tokens, LeaseRequest.MAX_BATCH);
    List<SettleCommand> commands = new ArrayList<>(tokens.size());
    for (String token : tokens) {
      commands.add(new SettleCommand.Complete(LeaseToken.parse(token)));
    }
    List<String> completed = new ArrayList<>();
    List<String> lost = new ArrayList<>();
    for (Settlement s : asFirstNamed(settles.each(commands))) {
      (s.settled() ? completed : lost).add(s.command().messageId());
    }
    return new CompleteAllResult(completed, lost);
  }

  /**
   * Each settlement, except that a command repeating an earlier one's very token (not just its
   * message) is answered as that one was: naming a token twice is not an error.
   */
  private static List<Settlement> asFirstNamed(List<Settlement> settlements) {
    Map<LeaseToken, Settlement> first = new HashMap<>();
    List<Settlement> out = new ArrayList<>(settlements.size());
    for (Settlement s : settlements) {
      Settlement earlier = first.putIfAbsent(s.command().token(), s);
      boolean repeat = s.lost() == Settlement.Lost.DUPLICATE && earlier != null;
      out.add(repeat ? earlier : s);
    }
    return out;
  }

  /**
   * Fails an attempt: it backs off and comes back, or dies (retries exhausted or not retryable).
   *
   * <p>Reason UNREGISTERED_HANDLER (no handler for the message's type where it was leased, e.g.
   * during a rolling deployment) is not a failure of the message: unless {@code retryable} is
   * false, the lease is abandoned with the unregistered-handler backoff (1 s × 2^(attempt−1),
   * exponent capped at 6, at most 60 s; {@code retryAfter} overrides it), the attempt stays
   * counted, the history gets an ABANDONED entry with that reason, and a WARN names the attempts
   * left; the lease after the last attempt poisons it. The Java worker goes through here too.
   */
  public SettleResult fail(FailRequest request) {
    validation.fail(request);
    return settles.one(SettleCommand.Fail.of(request)).orThrow();
  }

  /**
   * Fails many attempts in one store transaction, each exactly as {@link #fail} would. Tokens that
   * no longer hold their message are reported as lost, not thrown; at most 1000 requests. Input is
   * validated before anything changes. UNREGISTERED_HANDLER requests are abandoned as {@link #fail}
   * says, each in its own transaction. A token named twice is listed as its first naming was.
   */
  public FailAllResult failAll(List<FailRequest> requests) {
    Validation.sized("requests", "fail request", requests, LeaseRequest.MAX_BATCH);
    List<SettleCommand> commands = new ArrayList<>(requests.size());
    for (FailRequest request : requests) {
      validation.fail(request);
      commands.add(SettleCommand.Fail.of(request));
    }
    List<SettleResult> failed = new ArrayList<>();
    List<String> lost = new ArrayList<>();
    for (Settlement s : asFirstNamed(settles.each(commands))) {
      if (s.settled()) {
        failed.add(s.result());
      } else {
        lost.add(s.command().messageId());
      }
    }
    return new FailAllResult(failed, lost);
  }

  /**
   * Gives a lease back, visible again after {@code delay}; the attempt stays used unless refunded.
   */
  public SettleResult abandon(AbandonRequest request) {
    if (request == null) {
      throw new IllegalArgumentException("request: is required");
    }
    return settles.one(SettleCommand.Abandon.of(request)).orThrow();
  }

  /**
   * Slows down (a dependency answered "too many requests"): the lease is given back with its
   * attempt refunded, visible again after {@code delay}, and the message's limit key (or its whole
   * queue when it has none) is held for {@code delay}: no message of it is leased until then, on
   * any node ({@code HandlerResult.slowDown} for workers).
   */
  public SettleResult slowDown(String token, Duration delay) {
    if (token == null) {
      throw new IllegalArgumentException("token: is required");
    }
    if (delay == null || delay.isNegative() || delay.isZero()) {
      throw new IllegalArgumentException(
          "slowDown: must be positive, was "
              + (delay == null ? "null" : DurationText.format(delay)));
    }
    return settles.one(SettleCommand.Abandon.slowDown(LeaseToken.parse(token), delay)).orThrow();
  }

  /**
   * Gives several leases back at once with their attempts refunded (cascade release), all or none:
   * one token that does not hold its message (or is named twice) releases nothing and is thrown.
   */
  public List<SettleResult> release(List<String> tokens) {
    Validation.sized("tokens", "lease token", tokens, LeaseRequest.MAX_BATCH);
    List<SettleCommand> commands = new ArrayList<>(tokens.size());
    for (String token : tokens) {
      commands.add(new SettleCommand.Release(LeaseToken.parse(token)));
    }
    return settles.allOrNothing(commands).stream().map(Settlement::result).toList();
  }

  /**
   * Extends a lease by {@code leaseTimeout} from now (null: the queue's); returns the new expiry,
   * capped at the message's deadline ({@code expireAt}): a renew never carries a message past it. A
   * lease whose message is past its deadline is lost ({@link io.redrive.error.LeaseLostException}),
   * here as in every settle.
   */
  public Instant renew(String token, Duration leaseTimeout) {
    LeaseToken parsed = LeaseToken.parse(token);
    if (leaseTimeout != null) {
      QueuePolicy.requireLeaseTimeout(leaseTimeout);
    }
    return store.renewIfLeased(new RenewParams(parsed, leaseTimeout, now()));
  }

  /**
   * Records finished steps of a leased message at once (OR-merged), so a retry after a crash can
   * skip them; returns all bits recorded so far.
   */
  public long recordProgress(String token, long progress) {
    return store.recordProgressIfLeased(
        new ProgressParams(LeaseToken.parse(token), progress, now()));
  }

  // ---- operating ----

  /** A message with its whole history, or {@link MessageNotFoundException}. */
  public Message getMessage(String id) {
    Validation.id("id", id);
    return store
        .findMessage(new FindMessageParams(id, now()))
        .orElseThrow(() -> new MessageNotFoundException(id));
  }

  /**
   * Where {@code id} leads (docs/engine.md, "Lineage"): the ids of one message's story across
   * dead-letter moves and imports, oldest first, with the queue and state of those still stored. An
   * id that a dead message had before its move into a dead-letter queue leads to the copy; a copy's
   * id leads back to the id the enqueue returned. Never throws for an unknown id: the answer is
   * then {@link Lineage#unknown()}.
   */
  public Lineage lineage(String id) {
    Validation.id("id", id);
    return new Lineages(store).of(id);
  }

  /**
   * Messages found by {@code text} among {@code queues} (docs/engine.md, "Methods"): by whole id,
   * by id prefix (at least 4 characters, when nothing else matched), by an id the message had
   * before a dead-letter move (the hit is where it is now), and by dedupe key; at most 20 hits,
   * each message once. Every kind is an indexed read.
   *
   * @param queues the queues to search (a caller limited to some passes those)
   */
  public List<SearchHit> search(String text, Collection<String> queues) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("q: a search text is required");
    }
    Validation.noNul("q", text);
    if (text.length() > 512) {
      throw new IllegalArgumentException("q: at most 512 characters, was " + text.length());
    }
    if (queues == null) {
      throw new IllegalArgumentException("queues: is required");
    }
    return new MessageSearch(store).find(text.strip(), queues, now());
  }

  /**
   * The queue of message {@code id} (a full id, not a prefix), empty when there is no such message:
   * a narrow read without the history, for deciding who may act on a message (or its lease token)
   * before acting.
   */
  public Optional<String> queueOf(String id) {
    Validation.id("id", id);
    return store.findQueueOf(id);
  }

  /**
   * The one message id that starts with {@code prefix} (at least 4 characters); {@link
   * MessageNotFoundException} when none does, {@link ConflictException} {@code AMBIGUOUS_ID} naming
   * the first matches when several do.
   */
  public String resolveId(String prefix) {
    checkPrefix(prefix);
    return oneId(prefix, store.findIdsByPrefix(IdPrefixParams.anyQueue(prefix, 3)));
  }

  /**
   * Replays {@code queue}'s stories that ended in the last {@code since} (its dead messages, those
   * its dead-letter queue holds from it, and its kept completed stories; at most 10 000) under
   * {@code candidate}, and reports how many would have completed or died, and how much later or
   * earlier (docs/engine.md, "What-if for retry policies"). Reads only.
   *
   * @throws IllegalArgumentException when {@code since} is not between 1 minute and 90 days
   * @throws QueueNotFoundException when the queue does not exist
   */
  public io.redrive.whatif.WhatIfReport whatIf(
      String queue, Duration since, io.redrive.whatif.RetryCandidate candidate) {
    if (since == null
        || since.compareTo(Duration.ofMinutes(1)) < 0
        || since.compareTo(Duration.ofDays(90)) > 0) {
      throw new IllegalArgumentException("since: must be between 1m and 90d, was " + since);
    }
    if (candidate == null) {
      throw new IllegalArgumentException("candidate: must not be null");
    }
    Queue q = getQueue(queue);
    List<Message> stories =
        new WhatIfStories(this::listMessages, this::getMessage).read(q, now().minus(since));
    return io.redrive.whatif.PolicyWhatIf.replay(stories, candidate);
  }

  /**
   * Like {@link #resolveId(String)} among the messages of {@code queues} only: ids in other queues
   * count as absent, so a caller limited to some queues learns nothing about the others (an
   * ambiguous answer names only ids in {@code queues}; a prefix of another queue's id is not
   * found).
   */
  public String resolveId(String prefix, Collection<String> queues) {
    checkPrefix(prefix);
    if (queues == null) {
      throw new IllegalArgumentException("queues: is required");
    }
    TreeSet<String> ids = new TreeSet<>();
    for (String queue : new TreeSet<>(queues)) {
      ids.addAll(store.findIdsByPrefix(new IdPrefixParams(prefix, queue, 3)));
    }
    return oneId(prefix, new ArrayList<>(ids).subList(0, Math.min(3, ids.size())));
  }

  private static void checkPrefix(String prefix) {
    Validation.id("id", prefix);
    if (prefix.length() < 4) {
      throw new IllegalArgumentException(
          "id: a prefix needs at least 4 characters, was \"" + prefix + "\"");
    }
    if (prefix.indexOf('%') >= 0 || prefix.indexOf('_') >= 0 || prefix.indexOf('\\') >= 0) {
      throw new IllegalArgumentException("id: invalid character in \"" + prefix + "\"");
    }
  }

  private static String oneId(String prefix, List<String> ids) {
    if (ids.isEmpty()) {
      throw new MessageNotFoundException(prefix);
    }
    if (ids.size() > 1) {
      throw new ConflictException(
          ConflictException.AMBIGUOUS_ID,
          "id prefix \""
              + prefix
              + "\" matches several messages ("
              + String.join(", ", ids.subList(0, Math.min(2, ids.size())))
              + (ids.size() > 2 ? ", ..." : "")
              + "): give more characters");
    }
    return ids.get(0);
  }

  public MessagePage listMessages(MessageQuery query) {
    validation.query(query);
    return store.listMessages(new ListMessagesParams(query, now()));
  }

  /**
   * One page of dead-letter groups: the dead messages of the query's queues grouped by the cause
   * they died of ({@link io.redrive.deadletter.Fingerprint}), largest group first. Filter by a
   * group's {@link DeadGroup#fingerprint()} to list, drop, retry or redrive its messages.
   */
  public DeadGroupPage deadGroups(DeadGroupQuery query) {
    validation.deadGroups(query);
    return store.groupDead(new GroupDeadParams(query));
  }

  /** The first {@code limit} dead-letter groups of {@code queue}, or of every queue when null. */
  public DeadGroupPage deadGroups(String queue, int limit) {
    DeadGroupQuery query = queue == null ? DeadGroupQuery.allQueues() : DeadGroupQuery.of(queue);
    return deadGroups(query.withLimit(limit));
  }

  /**
   * Puts one dead message back to ready in place, attempts reset; a message that is not dead is
   * refused with {@link ConflictException} {@code NOT_DEAD}.
   */
  public Message retry(String id) {
    Validation.id("id", id);
    RetryResult result = retry(List.of(id), null);
    if (!result.notFound().isEmpty()) {
      throw new MessageNotFoundException(id);
    }
    if (!result.skipped().isEmpty()) {
      Message m = getMessage(id);
      throw new ConflictException(
          ConflictException.NOT_DEAD,
          "message \"" + id + "\" is " + m.state() + ": only dead messages can be retried");
    }
    return getMessage(id);
  }

  /** Bulk manual retry: reports which ids were retried, skipped (not dead) and not found. */
  public RetryResult retry(List<String> ids, String actor) {
    validation.ids(ids);
    Validation.noNul("actor", actor);
    RetryResult result = store.retryDead(new RetryParams(List.copyOf(ids), actor, now()));
    metrics.retriedByOperator(result, "manual");
    return result;
  }

  /**
   * "Retry now": makes one SCHEDULED message (waiting for an automatic retry, or enqueued with a
   * delay) visible at once, attempts kept, with a RETRIED_NOW history entry naming {@code actor}.
   * Any other state is refused with {@link ConflictException} {@code NOT_SCHEDULED} and nothing
   * changes.
   */
  public Message retryNow(String id, String actor) {
    Validation.id("id", id);
    RetryResult result = retryNow(List.of(id), actor);
    if (!result.notFound().isEmpty()) {
      throw new MessageNotFoundException(id);
    }
    if (!result.skipped().isEmpty()) {
      Message m = getMessage(id);
      throw new ConflictException(
          ConflictException.NOT_SCHEDULED,
          "message \""
              + id
              + "\" is "
              + m.state()
              + ": retry now takes only SCHEDULED messages"
              + (m.state() == MessageState.DEAD ? " (retry a dead message with retry)" : ""));
    }
    return getMessage(id);
  }

  /**
   * Bulk "retry now": reports which ids were made visible, skipped (not SCHEDULED) and not found.
   */
  public RetryResult retryNow(List<String> ids, String actor) {
    validation.ids(ids);
    Validation.noNul("actor", actor);
    RetryResult result =
        store.retryScheduledNow(new RetryNowParams(List.copyOf(ids), actor, now()));
    metrics.retriedByOperator(result, "now");
    return result;
  }

  /**
   * Moves dead messages from a dead-letter queue back to their source queue or another, keeping
   * their ids, resetting attempts and adding a REDRIVEN history entry. A message with no known
   * source queue moves only when {@code to} is given; the result lists it under {@code skipped}.
   */
  public RedriveResult redrive(RedriveRequest request) {
    validation.redrive(request);
    RedriveResult result = store.redriveDead(new RedriveParams(request, now()));
    metrics.redriven(request.from(), result);
    return result;
  }

  /** Deletes messages by id (any state). */
  public DropResult drop(List<String> ids) {
    validation.ids(ids);
    return store.dropMessages(
        new DropParams(List.copyOf(ids), null, null, null, null, null, 0, now()));
  }

  /** Deletes the messages of one queue matching a filter (never leased ones). */
  public DropResult dropMatching(DropFilter filter) {
    validation.dropFilter(filter);
    return store.dropMessages(
        new DropParams(
            null,
            filter.queue(),
            filter.states(),
            filter.type(),
            filter.deadReason(),
            filter.fingerprint(),
            filter.limit(),
            now()));
  }

  /** Imports messages keyed by {@code sourceId}; a source id already in the queue is skipped. */
  public ImportResult importMessages(String queue, List<ImportMessage> messages) {
    validation.importBatch(queue, messages);
    return store.importMessages(
        new ImportParams(queue, List.copyOf(messages), () -> MessageIds.next(clock), now()));
  }

  /**
   * A queue's live workers (lease calls within {@link #unservedAfter()}, recorded at most every
   * {@link io.redrive.lease.LiveWorker#RECORD_INTERVAL} per worker) and its unserved types: types
   * whose oldest ready message waited longer than that with no live worker taking them
   * (docs/engine.md, "Live workers and unserved types"). Read from the store, so every node answers
   * the same.
   *
   * @throws QueueNotFoundException when the queue does not exist
   */
  public io.redrive.lease.QueueWorkers queueWorkers(String queue) {
    String name = QueueNames.require("queue", queue);
    if (store.findQueue(name).isEmpty()) {
      throw new QueueNotFoundException(name);
    }
    return unservedTypes.read(name, now());
  }

  /**
   * Checks every queue that is not paused for unserved types, raising and clearing this node's
   * alerts (a WARN once per raise, an INFO when it clears, the gauge {@code
   * redrive.queue.unserved.types}); returns the raised ones. {@link
   * io.redrive.maintenance.Maintenance} runs it every 15 s on every node.
   */
  public List<io.redrive.lease.WaitingType> checkUnservedTypes() {
    List<String> queues = listQueues().stream().filter(q -> !q.paused()).map(Queue::name).toList();
    return unservedTypes.check(queues, now());
  }

  /** The unserved types this node's last {@link #checkUnservedTypes()} raised. */
  public List<io.redrive.lease.WaitingType> unservedTypes() {
    return unservedTypes.raised();
  }

  /** How long a type may wait with no live worker before it is unserved (default 5 min). */
  public Duration unservedAfter() {
    return unservedTypes.after();
  }

  /**
   * The workers holding leases now, per queue and message type (docs/engine.md, "Methods"): of
   * {@code queue}, or of every queue when null. Workers holding nothing do not appear.
   *
   * @throws QueueNotFoundException when a named queue does not exist
   */
  public List<LeaseHolder> leaseHolders(String queue) {
    List<String> names =
        queue == null
            ? listQueues().stream().map(Queue::name).toList()
            : List.of(QueueNames.require("queue", queue));
    List<LeaseHolder> out = new ArrayList<>();
    for (String name : names) {
      try {
        out.addAll(store.leaseHolders(new LeaseHoldersParams(name, now())));
      } catch (QueueNotFoundException gone) {
        if (queue != null) {
          throw gone;
        }
        // deleted since it was listed: nothing held there
      }
    }
    return out;
  }

  /** The circuits of {@code queue}'s dependencies as they stand now (see {@code CircuitPolicy}). */
  public List<io.redrive.queue.CircuitStatus> circuits(String queue) {
    QueueNames.require("queue", queue);
    return store.circuits(new StatsParams(queue, now()));
  }

  /**
   * Opens ({@code open} true) or closes the circuit of {@code dependency} in {@code queue} by hand:
   * opened, every message that needs it is held, without probes, until it is closed by hand.
   */
  public io.redrive.queue.CircuitStatus setCircuit(String queue, String dependency, boolean open) {
    QueueNames.require("queue", queue);
    io.redrive.failure.Dependencies.require("dependency", dependency);
    if (dependency == null) {
      throw new IllegalArgumentException("dependency: is required");
    }
    return store.setCircuit(new io.redrive.store.CircuitParams(queue, dependency, open, now()));
  }

  /** Where {@code queue} stands against its flow limits now (see {@code FlowLimits}). */
  public io.redrive.queue.FlowStatus flowStatus(String queue) {
    QueueNames.require("queue", queue);
    return store.flowStatus(new StatsParams(queue, now()));
  }

  public QueueStats stats(String queue) {
    QueueNames.require("queue", queue);
    return store.stats(new StatsParams(queue, now()));
  }

  /**
   * The throughput of one queue, or of every queue summed when {@code queue} is null, over the last
   * {@code window}: one {@link ThroughputPoint} per minute, oldest first, the last one the current
   * (unfinished) minute; minutes with nothing recorded are zeros. Read from the database, so the
   * same on every node (docs/engine.md, "Throughput counters").
   *
   * @param window whole minutes, 1 minute to 24 hours ({@link #MAX_THROUGHPUT_WINDOW})
   * @throws IllegalArgumentException naming {@code window} or {@code queue} when invalid
   * @throws QueueNotFoundException when a named queue does not exist
   */
  public List<ThroughputPoint> throughput(String queue, Duration window) {
    int minutes = throughputMinutes(window);
    if (queue == null) {
      return readThroughput(null, minutes);
    }
    getQueue(queue);
    return readThroughput(List.of(queue), minutes);
  }

  /**
   * The throughput of {@code queues} summed (names of queues that do not exist count nothing), as
   * {@link #throughput(String, Duration)}: for a caller that may see only some queues.
   *
   * @throws IllegalArgumentException naming {@code window} or {@code queues} when invalid
   */
  public List<ThroughputPoint> throughputOf(Collection<String> queues, Duration window) {
    int minutes = throughputMinutes(window);
    if (queues == null) {
      throw new IllegalArgumentException(
          "queues: is required (throughput(null, window) sums every queue)");
    }
    for (String q : queues) {
      QueueNames.require("queues", q);
    }
    return readThroughput(List.copyOf(new TreeSet<>(queues)), minutes);
  }

  private List<ThroughputPoint> readThroughput(List<String> queues, int minutes) {
    Instant to = now();
    return store.throughput(
        new ThroughputParams(queues, to.minus(Duration.ofMinutes(minutes - 1)), to));
  }

  private static int throughputMinutes(Duration window) {
    if (window == null
        || window.compareTo(Duration.ofMinutes(1)) < 0
        || window.compareTo(MAX_THROUGHPUT_WINDOW) > 0
        || !window.equals(Duration.ofMinutes(window.toMinutes()))) {
      throw new IllegalArgumentException(
          "window: must be whole minutes between 1m and 24h, was " + window);
    }
    return (int) window.toMinutes();
  }

  /**
   * Records every queue's depth by state for the current minute, unless a node did already this
   * minute (the first writer wins); returns the rows written. {@link
   * io.redrive.maintenance.Maintenance} runs this once a minute on every node.
   */
  public int recordDepth() {
    return store.recordDepth(new DepthSnapshotParams(now()));
  }

  /**
   * Deletes the throughput counters and depth snapshots older than {@code retention} (whole minutes
   * that ended before now minus it); returns the rows deleted. {@link
   * io.redrive.maintenance.Maintenance} runs this with its throughput retention (default 24 h).
   *
   * @throws IllegalArgumentException naming {@code retention} when not positive
   */
  public int forgetThroughput(Duration retention) {
    if (retention == null || retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("retention: must be positive, was " + retention);
    }
    return store.deleteThroughput(new DeleteThroughputParams(now().minus(retention)));
  }

  /**
   * Dead-letters as EXPIRED every message past its deadline (ready, scheduled or leased; paused
   * queues too), each the way its queue's dead-letter policy says, in transactions of at most 500
   * messages; returns how many. {@link io.redrive.maintenance.Maintenance} runs this on an
   * interval.
   */
  public int expireDue() {
    return expireDue(500);
  }

  /**
   * Deletes the completion records older than the completion window, in transactions of at most
   * {@code batchSize} records (1–10000); returns how many. {@link
   * io.redrive.maintenance.Maintenance} runs this on an interval; with a zero window every record
   * goes.
   */
  public int forgetCompletions(int batchSize) {
    if (batchSize < 1 || batchSize > 10_000) {
      throw new IllegalArgumentException(
          "batchSize: must be between 1 and 10000, was " + batchSize);
    }
    Instant now = now();
    Instant before = now.minus(completionWindow);
    int total = 0;
    while (true) {
      int deleted = store.deleteCompletions(new DeleteCompletionsParams(before, now, batchSize));
      total += deleted;
      if (deleted < batchSize) {
        return total;
      }
    }
  }

  /**
   * How long a completed message's story is kept when its queue does not say (see {@link
   * Builder#completedRetention}).
   */
  public Duration completedRetention() {
    return completedRetention;
  }

  /** How long a completed message is remembered (see {@link Builder#completionWindow}). */
  public Duration completionWindow() {
    return completionWindow;
  }

  /**
   * {@link #expireDue()} in transactions of at most {@code batchSize} messages (1–10000). Safe to
   * call from many threads and nodes at once: none is dead-lettered twice.
   */
  public int expireDue(int batchSize) {
    if (batchSize < 1 || batchSize > 10_000) {
      throw new IllegalArgumentException(
          "batchSize: must be between 1 and 10000, was " + batchSize);
    }
    int total = 0;
    while (true) {
      List<SettleResult> batch = store.expireDue(new ExpireParams(now(), batchSize));
      batch.forEach(metrics::died);
      total += batch.size();
      if (batch.size() < batchSize) {
        return total;
      }
    }
  }

  /**
   * Gives back the messages of leases whose answer was lost and whose give-back failed when it
   * happened (see {@link #lease}), oldest first; returns how many messages came back. Stops at the
   * first store failure and throws it, keeping that lease and the rest for the next call. {@link
   * io.redrive.maintenance.Maintenance} runs this on each sweep. Thread-safe.
   */
  public int releaseUndelivered() {
    return lostLeases.retryPending();
  }

  /**
   * Starts this engine's liveness heartbeat (a no-op when it runs): a row in the store that says
   * since when this process has been continuously alive, the evidence by which a lease expiry on a
   * queue with a crash-loop breaker counts as a worker crash or as an outage (docs/engine.md,
   * "Crash evidence"). A lease starts it; a process that watches without leasing yet (a workflow
   * runtime) calls it at its start. One statement every 5 seconds, on a shared daemon thread.
   */
  public void keepAlive() {
    liveness.start();
  }

  /** This engine's node id in the store's liveness rows (random per engine). */
  public String nodeId() {
    return liveness.node();
  }

  @Override
  public void close() {
    liveness.close();
    store.close();
  }

  /** Builds a {@link Redrive}; not thread-safe. */
  public static final class Builder {
    private final Store store;
    private Clock clock = Clock.systemUTC();
    private int maxPayloadBytes = Validation.DEFAULT_MAX_PAYLOAD_BYTES;
    private UnregisteredHandlerBackoff unregisteredBackoff = UnregisteredHandlerBackoff.DEFAULT;
    private MeterRegistry meterRegistry;
    private Duration completionWindow = DEFAULT_COMPLETION_WINDOW;
    private Duration completedRetention = Duration.ZERO;
    private CallerTransactions callerTransactions = CallerTransactions.NONE;
    private MessageTracing tracing = MessageTracing.NONE;
    private Duration unservedAfter = DEFAULT_UNSERVED_AFTER;

    private Builder(Store store) {
      if (store == null) {
        throw new IllegalArgumentException("store: is required");
      }
      this.store = store;
    }

    /** The clock for backoff, leases, expiry and scheduling (default: system UTC). */
    public Builder clock(Clock value) {
      if (value == null) {
        throw new IllegalArgumentException("clock: is required");
      }
      this.clock = value;
      return this;
    }

    /** Largest accepted payload in UTF-8 bytes (default 256 KiB, at most 64 MiB). */
    public Builder maxPayloadBytes(int value) {
      if (value < 1 || value > 64 * 1024 * 1024) {
        throw new IllegalArgumentException(
            "maxPayloadBytes: must be between 1 and 67108864, was " + value);
      }
      this.maxPayloadBytes = value;
      return this;
    }

    /**
     * How long a ready message's type may wait with no live worker taking it before it is unserved,
     * 30 s to 1 day (default 5 min); also how recent a lease call must be for its worker to count
     * as live (docs/engine.md, "Live workers and unserved types").
     */
    public Builder unservedAfter(Duration value) {
      if (value == null
          || value.compareTo(Duration.ofSeconds(30)) < 0
          || value.compareTo(Duration.ofDays(1)) > 0) {
        throw new IllegalArgumentException(
            "unservedAfter: must be between 30s and 1d, was " + value);
      }
      this.unservedAfter = value;
      return this;
    }

    /**
     * The backoff of a {@link #fail} with reason UNREGISTERED_HANDLER that gives no {@code
     * retryAfter} (default 1 s × 2^(attempt−1), exponent capped at 6, at most 60 s).
     */
    public Builder unregisteredBackoff(UnregisteredHandlerBackoff value) {
      if (value == null) {
        throw new IllegalArgumentException("unregisteredBackoff: is required");
      }
      this.unregisteredBackoff = value;
      return this;
    }

    /**
     * Where the engine's message metrics go (names in docs/engine.md, "Metrics"): every path that
     * goes through this engine counts, in-process or over HTTP. Default: none (no meters).
     */
    public Builder meterRegistry(MeterRegistry value) {
      if (value == null) {
        throw new IllegalArgumentException("meterRegistry: is required");
      }
      this.meterRegistry = value;
      return this;
    }

    /**
     * How long a completed message is remembered after it leaves its queue (default 5 minutes, at
     * most 7 days; zero: not at all). Within it, completing again with the same lease token answers
     * "completed" ({@link SettleResult#repeated()}) instead of LEASE_NOT_FOUND, and an enqueue with
     * the completed message's {@code dedupeKey} in the same queue is a duplicate of it. {@link
     * io.redrive.maintenance.Maintenance} deletes older records.
     */
    public Builder completionWindow(Duration value) {
      if (value == null || value.isNegative() || value.compareTo(MAX_COMPLETION_WINDOW) > 0) {
        throw new IllegalArgumentException(
            "completionWindow: must be between 0s and 7d, was "
                + (value == null ? "null" : DurationText.format(value)));
      }
      this.completionWindow = value;
      return this;
    }

    /**
     * How long a completed message's story is kept when its queue does not set its own {@link
     * io.redrive.queue.QueuePolicy#completedRetention} (default zero: completed messages leave at
     * once, as they always did; at most 90 days). A kept story (state COMPLETED, attempts, times,
     * worker, payload, headers and every attempt's history) is found by id, listed among the
     * queue's messages in state COMPLETED, and deleted by {@link
     * io.redrive.maintenance.Maintenance} when its time is up. The completion window keeps its own
     * meaning (repeated completes, dedupe keys) whatever the retention.
     */
    public Builder completedRetention(Duration value) {
      this.completedRetention = QueuePolicy.requireCompletedRetention(value);
      return this;
    }

    /**
     * Finds the application's transaction in progress, which enqueues then join (default: {@link
     * CallerTransactions#NONE}, every enqueue without a connection commits on its own). The Spring
     * Boot starter sets one for Spring-managed transactions.
     */
    public Builder callerTransactions(CallerTransactions value) {
      if (value == null) {
        throw new IllegalArgumentException("callerTransactions: is required");
      }
      this.callerTransactions = value;
      return this;
    }

    /**
     * Where enqueues and workers report messages for tracing (default {@link MessageTracing#NONE}:
     * nothing is traced and no header is added). redrive-opentelemetry's {@code RedriveTracing}
     * implements it with OpenTelemetry; see docs/tracing.md.
     */
    public Builder tracing(MessageTracing value) {
      if (value == null) {
        throw new IllegalArgumentException("tracing: is required");
      }
      this.tracing = value;
      return this;
    }

    public Redrive build() {
      return new Redrive(this);
    }
  }
}
