package io.redrive.jdbc;

import io.redrive.deadletter.DeadGroupPage;
import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.ImportResult;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.jdbc.owned.OwnedQueues;
import io.redrive.jdbc.workflow.Workflows;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettleResult;
import io.redrive.lease.Settlement;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Message;
import io.redrive.message.MessageIds;
import io.redrive.message.MessagePage;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueStats;
import io.redrive.store.AbandonTurnParams;
import io.redrive.store.CommitTurnParams;
import io.redrive.store.CreateQueueParams;
import io.redrive.store.DeleteCompletionsParams;
import io.redrive.store.DeleteThroughputParams;
import io.redrive.store.DeleteTreeResult;
import io.redrive.store.DepthSnapshotParams;
import io.redrive.store.DropParams;
import io.redrive.store.EnqueueParams;
import io.redrive.store.ExecutionRow;
import io.redrive.store.ExpireParams;
import io.redrive.store.FindMessageParams;
import io.redrive.store.GroupDeadParams;
import io.redrive.store.HistoryRow;
import io.redrive.store.IdPrefixParams;
import io.redrive.store.ImportParams;
import io.redrive.store.InboxRow;
import io.redrive.store.InstancePage;
import io.redrive.store.InstanceRow;
import io.redrive.store.LeaseParams;
import io.redrive.store.LeaseTurnParams;
import io.redrive.store.ListInstancesParams;
import io.redrive.store.ListMessagesParams;
import io.redrive.store.PauseParams;
import io.redrive.store.ProgressParams;
import io.redrive.store.RaiseEventParams;
import io.redrive.store.ReadySubscription;
import io.redrive.store.RedriveParams;
import io.redrive.store.ReleaseUndeliveredParams;
import io.redrive.store.RenewParams;
import io.redrive.store.RenewTurnParams;
import io.redrive.store.RetryInstanceParams;
import io.redrive.store.RetryNowParams;
import io.redrive.store.RetryParams;
import io.redrive.store.SettleParams;
import io.redrive.store.StartInstanceParams;
import io.redrive.store.StartInstanceResult;
import io.redrive.store.StatsParams;
import io.redrive.store.Store;
import io.redrive.store.TerminateParams;
import io.redrive.store.ThroughputParams;
import io.redrive.store.TurnLease;
import io.redrive.store.TurnRow;
import io.redrive.store.UpdateQueueParams;
import io.redrive.store.WorkflowStore;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * A {@link Store} over JDBC. The statements both databases share live here; each store module
 * supplies a {@link SqlDialect} for locking, write discipline and error classification, and owns
 * its schema migrations. Thread-safe.
 */
public abstract class JdbcStore implements Store, WorkflowStore {
  private final DataSource dataSource;
  private final Transactions tx;
  private final QueueRows queues;
  private final Producing producing;
  private final Leasing leasing;
  private final Settling settling;
  private final Renewing renewing;
  private final CompletionRows completions;
  private final ThroughputRows throughput;
  private final Inspecting inspecting;
  private final Operating operating;
  private final DeadGroups deadGroups;
  private final UndeliveredLeases undelivered;
  private final MessageRows messages;
  private final HistoryRows history;
  private final Workflows workflows;
  private final ReadySignals signals = new ReadySignals();

  /** A store whose tables need no schema name (the connection's default holds them). */
  protected JdbcStore(DataSource dataSource, SqlDialect dialect) {
    this(dataSource, dialect, null);
  }

  /**
   * A store whose tables live in {@code schema}: every statement names it, so the store works on
   * connections with any search path, an application's included.
   *
   * @param schema a lower-case SQL identifier, or null when tables need no schema name
   */
  protected JdbcStore(DataSource dataSource, SqlDialect dialect, String schema) {
    this.dataSource = dataSource;
    this.tx =
        new Transactions(dataSource, dialect, schema == null ? null : new SchemaQualifier(schema));
    this.queues = new QueueRows(dialect);
    this.workflows = new Workflows(dialect, () -> signals.signal(Workflows.SIGNAL));
    QueueKinds kinds = new QueueKinds(workflows.activityEndings(), Workflows.NOT_AN_ACTIVITY);
    this.messages = new MessageRows(dialect, kinds);
    this.history = new HistoryRows();
    // Dead-letter copies only need unique, time-ordered ids; the wall clock is fine for the time
    // part since serve order never reads ids.
    DeadLettering deadLettering =
        new DeadLettering(messages, history, () -> MessageIds.next(Clock.systemUTC()));
    this.completions = new CompletionRows(dialect);
    this.throughput = new ThroughputRows(dialect);
    this.producing = new Producing(dialect, queues, messages, history, completions, kinds);
    this.leasing = new Leasing(dialect, queues, history, deadLettering, kinds);
    this.settling =
        new Settling(dialect, messages, history, completions, throughput, deadLettering, kinds);
    this.renewing = new Renewing(messages);
    this.inspecting = new Inspecting(queues, history);
    this.operating = new Operating(dialect, queues, messages, history, deadLettering);
    this.deadGroups = new DeadGroups(dialect, history);
    this.undelivered = new UndeliveredLeases(dialect, messages, history);
  }

  /**
   * What the workflow statements may do to the messages of workflow-owned queues in one
   * transaction, whose {@code tally} counts what they enqueue.
   */
  private OwnedQueues ownedQueues(Tally tally) {
    return new OwnedQueueMessages(producing, operating, messages, history, tally);
  }

  /** Work that counts its throughput in a {@link Tally}. */
  @FunctionalInterface
  private interface CountedWork<T> {
    T run(Connection connection, Tally tally) throws java.sql.SQLException;
  }

  /**
   * Runs {@code work} in a write transaction whose last statement adds what it counted to the
   * throughput counters of {@code now}'s minute (see {@link ThroughputRows}).
   */
  private <T> T writeCounted(String what, Instant now, CountedWork<T> work) {
    return tx.write(
        what,
        c -> {
          Tally tally = Tally.of();
          T result = work.run(c, tally);
          throughput.flush(c, tally, now, false);
          return result;
        });
  }

  /** The pooled data source this store runs on. */
  protected DataSource dataSource() {
    return dataSource;
  }

  @Override
  public Queue createQueue(CreateQueueParams p) {
    return tx.write(
        "create queue " + p.name(),
        c -> queues.insert(c, p.name(), p.policy(), p.workflowOwned(), p.now()));
  }

  @Override
  public Queue updateQueue(UpdateQueueParams p) {
    return tx.write(
        "update queue " + p.name(),
        c -> {
          Queue current = queues.require(c, p.name(), true);
          return queues.update(c, p.name(), p.update().applyTo(current.policy()), p.now());
        });
  }

  @Override
  public Optional<Queue> findQueue(String name) {
    return tx.read("find queue " + name, c -> queues.find(c, name, false));
  }

  @Override
  public List<Queue> listQueues() {
    return tx.read("list queues", queues::list);
  }

  @Override
  public void deleteQueue(String name) {
    tx.write(
        "delete queue " + name,
        c -> {
          queues.delete(c, name);
          completions.deleteQueue(c, name);
          throughput.deleteQueue(c, name);
          return null;
        });
  }

  @Override
  public Queue setPaused(PauseParams p) {
    return tx.write(
        (p.paused() ? "pause" : "resume") + " queue " + p.queue(),
        c -> queues.setPaused(c, p.queue(), p.paused(), p.now()));
  }

  @Override
  public List<EnqueueResult> enqueue(EnqueueParams p) {
    // Never in auto-commit: an enqueue failing on a connection that died is then surely not
    // committed (no COMMIT was sent), so the caller may retry it without a dedupe key.
    List<EnqueueResult> out =
        writeCounted("enqueue", p.now(), (c, tally) -> producing.enqueue(c, p, false, tally));
    p.messages().stream()
        .map(e -> e.message().queue())
        .distinct()
        .forEach(
            queue -> {
              signals.signal(queue);
              messagesCommitted(queue);
            });
    return out;
  }

  @Override
  public List<EnqueueResult> enqueue(Connection connection, EnqueueParams p) {
    return tx.onCallerConnection(
        "enqueue on caller's transaction",
        connection,
        c -> {
          Tally tally = Tally.of();
          List<EnqueueResult> out = producing.enqueue(c, p, true, tally);
          throughput.flush(c, tally, p.now(), true);
          return out;
        });
  }

  /**
   * Called after this store committed new ready messages of {@code queue} (not for enqueues on a
   * caller's connection, which the dialect announces inside that transaction); PostgreSQL tells
   * other nodes here.
   */
  protected void messagesCommitted(String queue) {}

  @Override
  public StartInstanceResult startInstance(StartInstanceParams p) {
    return tx.write("start workflow instance " + p.instanceId(), c -> workflows.start(c, p));
  }

  @Override
  public StartInstanceResult startInstance(Connection connection, StartInstanceParams p) {
    return tx.onCallerConnection(
        "start workflow instance " + p.instanceId() + " on caller's transaction",
        connection,
        c -> workflows.start(c, p));
  }

  @Override
  public Optional<InstanceRow> findInstance(String instanceId) {
    return tx.read("find workflow instance " + instanceId, c -> workflows.find(c, instanceId));
  }

  @Override
  public ReadySubscription subscribeTurns(Runnable listener) {
    // Through subscribeReady, so a store that hears other nodes (PostgreSQL) starts listening.
    return subscribeReady(Workflows.SIGNAL, listener);
  }

  @Override
  public InstancePage listInstances(ListInstancesParams p) {
    return tx.read("list workflow instances", c -> workflows.list(c, p));
  }

  @Override
  public List<io.redrive.store.ActivityLinkRow> pendingActivities(String instanceId) {
    return tx.read(
        "read pending activities of workflow instance " + instanceId,
        c -> workflows.pendingActivities(c, instanceId));
  }

  @Override
  public java.util.Map<InstanceRow.Status, Long> countInstances() {
    return tx.read("count workflow instances", workflows::countByStatus);
  }

  @Override
  public List<TurnRow> readTimeline(String instanceId) {
    return tx.read(
        "read timeline of workflow instance " + instanceId, c -> workflows.timeline(c, instanceId));
  }

  @Override
  public Optional<Instant> nextDueAt(Instant now) {
    return tx.read("find the next due workflow turn", workflows::nextDueAt);
  }

  @Override
  public boolean raiseEvent(RaiseEventParams p) {
    return tx.write(
        "raise event " + p.name() + " for " + p.instanceId(), c -> workflows.raise(c, p));
  }

  @Override
  public boolean requestTerminate(TerminateParams p) {
    return tx.write("request termination of " + p.instanceId(), c -> workflows.terminate(c, p));
  }

  @Override
  public void retryInstance(RetryInstanceParams p) {
    List<String> queues =
        tx.write(
            "retry workflow instance " + p.instanceId(),
            c -> workflows.retry(c, p, ownedQueues(Tally.of())));
    for (String queue : queues) {
      signals.signal(queue);
      messagesCommitted(queue);
    }
  }

  @Override
  public DeleteTreeResult deleteInstanceTree(String instanceId, boolean force) {
    return tx.write(
        "delete workflow tree of " + instanceId,
        c -> workflows.deleteTree(c, instanceId, force, ownedQueues(Tally.of())));
  }

  @Override
  public List<HistoryRow> readHistory(String instanceId, Integer executionId) {
    return tx.read(
        "read history of workflow instance " + instanceId,
        c -> workflows.history(c, instanceId, executionId));
  }

  @Override
  public List<InboxRow> readInbox(String instanceId) {
    return tx.read(
        "read inbox of workflow instance " + instanceId, c -> workflows.inbox(c, instanceId));
  }

  @Override
  public List<ExecutionRow> listExecutions(String instanceId) {
    return tx.read(
        "list executions of workflow instance " + instanceId,
        c -> workflows.executions(c, instanceId));
  }

  @Override
  public Optional<TurnLease> leaseTurn(LeaseTurnParams p) {
    return tx.write("lease a workflow turn", c -> workflows.leaseTurn(c, p));
  }

  @Override
  public Instant renewTurn(RenewTurnParams p) {
    return tx.write("renew the turn of " + p.instanceId(), c -> workflows.renewTurn(c, p));
  }

  @Override
  public void commitTurn(CommitTurnParams p) {
    Set<String> activityQueues =
        writeCounted(
            "commit the turn of " + p.instanceId(),
            p.now(),
            (c, tally) -> workflows.commitTurn(c, p, ownedQueues(tally)));
    for (String queue : activityQueues) {
      signals.signal(queue);
      messagesCommitted(queue);
    }
  }

  @Override
  public void abandonTurn(AbandonTurnParams p) {
    tx.write(
        "abandon the turn of " + p.instanceId(),
        c -> {
          workflows.abandonTurn(c, p);
          return null;
        });
  }

  @Override
  public LeaseResult leaseReady(LeaseParams p) {
    String what = "lease from " + p.queue();
    if (!leasing.leasesAlone()) {
      return writeCounted(what, p.now(), (c, tally) -> leasing.lease(c, p, tally));
    }
    Leasing.FirstRound first = tx.writeAlone(what, c -> leasing.leaseAlone(c, p));
    if (first.finished()) {
      return first.result();
    }
    List<LeasedMessage> leased = first.result().leased();
    LeaseParams rest =
        new LeaseParams(
            p.queue(), p.worker(), p.max() - leased.size(), p.leaseTimeout(), p.now(), p.batch());
    LeaseResult more;
    try {
      more = writeCounted(what, rest.now(), (c, tally) -> leasing.lease(c, rest, tally));
    } catch (RuntimeException e) {
      if (leased.isEmpty()) {
        throw e;
      }
      // The first round's leases are committed: hand them out rather than let them run out.
      return first.result();
    }
    List<LeasedMessage> all = new ArrayList<>(leased);
    all.addAll(more.leased());
    return new LeaseResult(
        all, more.poisoned(), more.expired(), more.discarded(), more.crashPoisoned());
  }

  @Override
  public List<Settlement> settle(SettleParams p) {
    String what =
        p.commands().size() == 1
            ? "settle " + p.commands().get(0).messageId()
            : "settle " + p.commands().size() + " messages";
    if (leasing.leasesAlone()
        && !p.allOrNothing()
        && p.commands().stream()
            .allMatch(
                command ->
                    command instanceof SettleCommand.Complete complete
                        && complete.result() == null)) {
      // Plain completions only: one DELETE statement (see Completing) that also counts them, then
      // reads for the tokens it missed. An activity's completion carries a result and ends its
      // activity in several statements, so it takes a transaction (below); a plain complete of an
      // activity message, which the DELETE leaves, is ended in a transaction of its own by
      // Settling, which counts it there.
      return tx.writeAlone(
          what,
          c -> {
            Tally tally = Tally.alone();
            List<Settlement> out = settling.settle(c, p, tally);
            throughput.flush(c, tally, p.now(), false);
            return out;
          });
    }
    return writeCounted(what, p.now(), (c, tally) -> settling.settle(c, p, tally));
  }

  @Override
  public List<String> releaseUndelivered(ReleaseUndeliveredParams p) {
    List<String> ids =
        tx.write(
            "give back undelivered lease " + p.batch() + " of " + p.queue(),
            c -> undelivered.release(c, p));
    if (!ids.isEmpty()) {
      signals.signal(p.queue());
      messagesCommitted(p.queue());
    }
    return ids;
  }

  @Override
  public Instant renewIfLeased(RenewParams p) {
    return tx.write("renew " + p.token().messageId(), c -> renewing.renew(c, p));
  }

  @Override
  public long recordProgressIfLeased(ProgressParams p) {
    return tx.write(
        "record progress of " + p.token().messageId(), c -> renewing.recordProgress(c, p));
  }

  @Override
  public ReadySubscription subscribeReady(String queue, Runnable listener) {
    return signals.subscribe(queue, listener);
  }

  /** Tells local subscribers of {@code queue} that messages may be ready (e.g. on a NOTIFY). */
  protected void signalReady(String queue) {
    signals.signal(queue);
  }

  @Override
  public Optional<Message> findMessage(FindMessageParams p) {
    return tx.read("find message " + p.id(), c -> inspecting.find(c, p.id(), p.now()));
  }

  @Override
  public Optional<String> findQueueOf(String id) {
    return tx.read("find queue of message " + id, c -> inspecting.queueOf(c, id));
  }

  @Override
  public MessagePage listMessages(ListMessagesParams p) {
    if (p.query().fingerprint() != null) {
      fillFingerprints(List.of(p.query().queue()));
    }
    return tx.read(
        "list messages of " + p.query().queue(), c -> inspecting.list(c, p.query(), p.now()));
  }

  @Override
  public List<String> findIdsByPrefix(IdPrefixParams p) {
    if (p.queue() == null) {
      return tx.read(
          "find ids by prefix " + p.prefix(),
          c -> inspecting.idsByPrefix(c, p.prefix(), p.limit()));
    }
    return tx.read(
        "find ids by prefix " + p.prefix() + " in " + p.queue(),
        c -> inspecting.idsByPrefix(c, p.prefix(), p.queue(), p.limit()));
  }

  @Override
  public RetryResult retryDead(RetryParams p) {
    return tx.write("retry", c -> operating.retry(c, p));
  }

  @Override
  public RetryResult retryScheduledNow(RetryNowParams p) {
    Set<String> touched = new TreeSet<>();
    RetryResult out = tx.write("retry now", c -> operating.retryNow(c, p, touched));
    for (String queue : touched) {
      signals.signal(queue);
      messagesCommitted(queue);
    }
    return out;
  }

  @Override
  public DeadGroupPage groupDead(GroupDeadParams p) {
    fillFingerprints(p.query().queues());
    return tx.read("group dead messages", c -> deadGroups.read(c, p.query()));
  }

  /**
   * Fingerprints the dead rows of {@code queues} (null: every queue) that died before fingerprints
   * were stored, {@link DeadGroups#FILL_BATCH} per transaction, so that a grouped read or a
   * fingerprint filter that follows misses none. One indexed read when there is nothing to fill.
   */
  private void fillFingerprints(java.util.Collection<String> queues) {
    if (!tx.read("find dead messages without fingerprint", c -> deadGroups.needsFill(c, queues))) {
      return;
    }
    while (tx.write(
            "fingerprint dead messages", c -> deadGroups.fill(c, queues, DeadGroups.FILL_BATCH))
        == DeadGroups.FILL_BATCH) {
      // another batch may be left
    }
  }

  @Override
  public RedriveResult redriveDead(RedriveParams p) {
    if (p.request().fingerprint() != null) {
      fillFingerprints(List.of(p.request().from()));
    }
    return tx.write("redrive from " + p.request().from(), c -> operating.redrive(c, p));
  }

  @Override
  public DropResult dropMessages(DropParams p) {
    if (p.fingerprint() != null && p.queue() != null) {
      fillFingerprints(List.of(p.queue()));
    }
    return tx.write("drop", c -> operating.drop(c, p));
  }

  @Override
  public ImportResult importMessages(ImportParams p) {
    return tx.write("import into " + p.queue(), c -> producing.importMessages(c, p));
  }

  @Override
  public QueueStats stats(StatsParams p) {
    return tx.read("stats of " + p.queue(), c -> inspecting.stats(c, p.queue(), p.now()));
  }

  @Override
  public List<SettleResult> expireDue(ExpireParams p) {
    return writeCounted(
        "expire due messages",
        p.now(),
        (c, tally) -> operating.expireDue(c, p.now(), p.limit(), tally));
  }

  @Override
  public List<io.redrive.queue.ThroughputPoint> throughput(ThroughputParams p) {
    return tx.read(
        "read throughput" + (p.queues() == null ? "" : " of " + p.queues()),
        c -> throughput.read(c, p.queues(), p.from(), p.to()));
  }

  @Override
  public int recordDepth(DepthSnapshotParams p) {
    return tx.write("record queue depths", c -> throughput.recordDepth(c, p.now()));
  }

  @Override
  public int deleteThroughput(DeleteThroughputParams p) {
    return tx.write("delete old throughput", c -> throughput.deleteOlder(c, p.before()));
  }

  @Override
  public int deleteCompletions(DeleteCompletionsParams p) {
    return tx.write(
        "delete completion records",
        c -> completions.deleteOlder(c, p.before().toEpochMilli(), p.limit()));
  }
}
