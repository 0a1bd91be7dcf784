package io.redrive.jdbc;

import io.redrive.deadletter.DeadGroupPage;
import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.ImportResult;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.jdbc.workflow.Workflows;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.SettleResult;
import io.redrive.lease.SettledThenLeased;
import io.redrive.lease.Settlement;
import io.redrive.message.EnqueueResult;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueStats;
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
import io.redrive.store.NodeBeatParams;
import io.redrive.store.PauseParams;
import io.redrive.store.ProgressParams;
import io.redrive.store.ReadySubscription;
import io.redrive.store.RedriveParams;
import io.redrive.store.ReleaseUndeliveredParams;
import io.redrive.store.RenewParams;
import io.redrive.store.RetryNowParams;
import io.redrive.store.RetryParams;
import io.redrive.store.ScheduleStore;
import io.redrive.store.SettleParams;
import io.redrive.store.StatsParams;
import io.redrive.store.Store;
import io.redrive.store.ThroughputParams;
import io.redrive.store.UpdateQueueParams;
import io.redrive.store.workflow.WorkflowStore;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * A {@link Store} over JDBC. The statements both databases share live in this package; each store
 * module supplies a {@link SqlDialect} for locking, write discipline and error classification, and
 * owns its schema migrations. Each call runs in its transaction here, or in the class that knows
 * how it spans several ({@link LeaseTransactions}, {@link SettleTransactions}); the {@link
 * WorkflowStore} half is {@link JdbcWorkflowStore}, the {@link ScheduleStore} half {@link
 * JdbcScheduleStore}, and {@link StoreParts} wires the parts. Thread-safe.
 */
public abstract class JdbcStore extends JdbcFlowStore
    implements Store, WorkflowStore, ScheduleStore {
  private final StoreParts parts;
  private final Transactions tx;
  private final CountedWrites counted;
  private final ReadySignals signals;

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
    this(StoreParts.wire(dataSource, dialect, schema));
  }

  private JdbcStore(StoreParts parts) {
    super(parts);
    this.parts = parts;
    this.tx = parts.tx();
    this.counted = parts.counted();
    this.signals = parts.signals();
    // Turns announced by a commit are told after it, like ready messages (messagesCommitted).
    tx.onTurnsCommitted(() -> readyCommitted(Workflows.SIGNAL));
  }

  /**
   * Writes the throughput counts still in memory, then releases the subclass's resources ({@link
   * #release}): a store closed normally loses no count.
   */
  @Override
  public final void close() {
    parts.pendingThroughput().close();
    objectiveCounts().close();
    release();
  }

  /** Releases what the store holds (threads, a pool it made); called once by {@link #close}. */
  protected abstract void release();

  /** The pooled data source this store runs on. */
  protected DataSource dataSource() {
    return parts.dataSource();
  }

  /**
   * Called after this store committed new ready messages of {@code queue} (not for enqueues on a
   * caller's connection, which the dialect announces inside that transaction); PostgreSQL tells
   * other nodes here.
   */
  protected void messagesCommitted(String queue) {}

  /** Tells local subscribers of {@code queue} that messages may be ready (e.g. on a NOTIFY). */
  protected void signalReady(String queue) {
    signals.signal(queue);
  }

  @Override
  final void readyCommitted(String queue) {
    signals.signal(queue);
    messagesCommitted(queue);
  }

  @Override
  public ReadySubscription subscribeReady(String queue, Runnable listener) {
    return signals.subscribe(queue, listener);
  }

  @Override
  public ReadySubscription subscribeTurns(Runnable listener) {
    // Through subscribeReady, so a store that hears other nodes (PostgreSQL) starts listening.
    return subscribeReady(Workflows.SIGNAL, listener);
  }

  @Override
  public Queue createQueue(CreateQueueParams p) {
    return tx.write(
        "create queue " + p.name(),
        c -> parts.queues().insert(c, p.name(), p.policy(), p.workflowOwned(), p.now()));
  }

  @Override
  public Queue updateQueue(UpdateQueueParams p) {
    return tx.write(
        "update queue " + p.name(),
        c -> {
          Queue current = parts.queues().require(c, p.name(), true);
          return parts.queues().update(c, p.name(), p.update().applyTo(current.policy()), p.now());
        });
  }

  @Override
  public Optional<Queue> findQueue(String name) {
    return tx.read("find queue " + name, c -> parts.queues().find(c, name, false));
  }

  @Override
  public List<Queue> listQueues() {
    return tx.read("list queues", parts.queues()::list);
  }

  @Override
  public void deleteQueue(String name) {
    parts
        .pendingThroughput()
        .forgetting(
            name,
            c -> {
              parts.queues().delete(c, name);
              parts.completions().deleteQueue(c, name);
              parts.throughput().deleteQueue(c, name);
              return null;
            });
  }

  @Override
  public Queue setPaused(PauseParams p) {
    return tx.write(
        (p.paused() ? "pause" : "resume") + " queue " + p.queue(),
        c -> parts.queues().setPaused(c, p.queue(), p.paused(), p.now()));
  }

  @Override
  public List<EnqueueResult> enqueue(EnqueueParams p) {
    CountedWrites.Work<List<EnqueueResult>> work =
        (c, tally) -> parts.producing().enqueue(c, p, false, tally);
    List<EnqueueResult> out =
        parts.producing().writesOneStatement(p)
            ? counted.writeAlone("enqueue", p.now(), work)
            : counted.write("enqueue", p.now(), work);
    p.messages().stream().map(e -> e.message().queue()).distinct().forEach(this::readyCommitted);
    return out;
  }

  @Override
  public List<EnqueueResult> enqueue(Connection connection, EnqueueParams p) {
    return counted.onCallerConnection(
        "enqueue on caller's transaction",
        connection,
        p.now(),
        (c, tally) -> parts.producing().enqueue(c, p, true, tally));
  }

  @Override
  public LeaseResult leaseReady(LeaseParams p) {
    LeaseResult leased = parts.leases().lease(p);
    objectiveCounts().leased(leased.leased(), p.now());
    return leased;
  }

  @Override
  public List<Settlement> settle(SettleParams p) {
    return parts.settles().settle(p);
  }

  @Override
  public SettledThenLeased settleThenLease(SettleParams settle, LeaseParams lease) {
    SettledThenLeased done = parts.settles().settleThenLease(settle, lease);
    objectiveCounts().leased(done.lease().leased(), lease.now());
    return done;
  }

  @Override
  public List<String> releaseUndelivered(ReleaseUndeliveredParams p) {
    List<String> ids =
        tx.write(
            "give back undelivered lease " + p.batch() + " of " + p.queue(),
            c -> parts.undelivered().release(c, p));
    if (!ids.isEmpty()) {
      readyCommitted(p.queue());
    }
    return ids;
  }

  @Override
  public Instant renewIfLeased(RenewParams p) {
    return tx.write("renew " + p.token().messageId(), c -> parts.renewing().renew(c, p));
  }

  @Override
  public long recordProgressIfLeased(ProgressParams p) {
    return tx.write(
        "record progress of " + p.token().messageId(), c -> parts.renewing().recordProgress(c, p));
  }

  @Override
  public Optional<Message> findMessage(FindMessageParams p) {
    return tx.read("find message " + p.id(), c -> parts.inspecting().find(c, p.id(), p.now()));
  }

  @Override
  public Optional<String> findQueueOf(String id) {
    return tx.read("find queue of message " + id, c -> parts.inspecting().queueOf(c, id));
  }

  @Override
  public List<io.redrive.message.MessageLink> findLinks(String id) {
    return tx.read("find links of message " + id, c -> parts.inspecting().links(c, id));
  }

  @Override
  public MessagePage listMessages(ListMessagesParams p) {
    if (p.query().fingerprint() != null) {
      parts.fingerprints().fill(List.of(p.query().queue()));
    }
    return tx.read(
        "list messages of " + p.query().queue(),
        c -> parts.inspecting().list(c, p.query(), p.now()));
  }

  @Override
  public List<String> findIdsByPrefix(IdPrefixParams p) {
    if (p.queue() == null) {
      return tx.read(
          "find ids by prefix " + p.prefix(),
          c -> parts.inspecting().idsByPrefix(c, p.prefix(), p.limit()));
    }
    return tx.read(
        "find ids by prefix " + p.prefix() + " in " + p.queue(),
        c -> parts.inspecting().idsByPrefix(c, p.prefix(), p.queue(), p.limit()));
  }

  @Override
  public RetryResult retryDead(RetryParams p) {
    return tx.write("retry", c -> parts.operating().retry(c, p));
  }

  @Override
  public RetryResult retryScheduledNow(RetryNowParams p) {
    Set<String> touched = new TreeSet<>();
    RetryResult out = tx.write("retry now", c -> parts.operating().retryNow(c, p, touched));
    touched.forEach(this::readyCommitted);
    return out;
  }

  @Override
  public DeadGroupPage groupDead(GroupDeadParams p) {
    parts.fingerprints().fill(p.query().queues());
    return tx.read("group dead messages", c -> parts.deadGroups().read(c, p.query()));
  }

  @Override
  public RedriveResult redriveDead(RedriveParams p) {
    if (p.request().fingerprint() != null) {
      parts.fingerprints().fill(List.of(p.request().from()));
    }
    return tx.write("redrive from " + p.request().from(), c -> parts.operating().redrive(c, p));
  }

  @Override
  public DropResult dropMessages(DropParams p) {
    if (p.fingerprint() != null && p.queue() != null) {
      parts.fingerprints().fill(List.of(p.queue()));
    }
    return tx.write("drop", c -> parts.operating().drop(c, p));
  }

  @Override
  public ImportResult importMessages(ImportParams p) {
    return tx.write("import into " + p.queue(), c -> parts.producing().importMessages(c, p));
  }

  @Override
  public List<io.redrive.lease.LeaseHolder> leaseHolders(LeaseHoldersParams p) {
    return tx.read(
        "lease holders of " + p.queue(),
        c -> parts.inspecting().leaseHolders(c, p.queue(), p.now()));
  }

  @Override
  public QueueStats stats(StatsParams p) {
    return tx.read("stats of " + p.queue(), c -> parts.inspecting().stats(c, p.queue(), p.now()));
  }

  @Override
  public List<SettleResult> expireDue(ExpireParams p) {
    return counted.write(
        "expire due messages",
        p.now(),
        (c, tally) -> parts.operating().expireDue(c, p.now(), p.limit(), tally));
  }

  @Override
  public List<io.redrive.queue.ThroughputPoint> throughput(ThroughputParams p) {
    parts.pendingThroughput().write(); // this node's own counts are read at once
    return tx.read(
        "read throughput" + (p.queues() == null ? "" : " of " + p.queues()),
        c -> parts.throughput().read(c, p.queues(), p.from(), p.to()));
  }

  @Override
  public int recordDepth(DepthSnapshotParams p) {
    int written = tx.write("record queue depths", c -> parts.throughput().recordDepth(c, p.now()));
    if (written > 0) { // this node won the minute: it samples the AGE objectives too
      sampleAges(p.now());
    }
    return written;
  }

  @Override
  public Instant beatNode(NodeBeatParams p) {
    return tx.write("beat of engine node " + p.node(), c -> Liveness.beat(c, p));
  }

  @Override
  public int deleteThroughput(DeleteThroughputParams p) {
    parts.pendingThroughput().write(); // so that no count older than the cut is written after it
    return tx.write("delete old throughput", c -> parts.throughput().deleteOlder(c, p.before()));
  }

  @Override
  public int deleteCompletions(DeleteCompletionsParams p) {
    return tx.write(
        "delete completion records",
        c ->
            new CompletedStories(parts.completions())
                .prune(c, p.before().toEpochMilli(), p.now().toEpochMilli(), p.limit()));
  }
}
