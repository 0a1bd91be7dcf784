package io.redrive.jdbc;

import io.redrive.jdbc.workflow.Workflows;
import io.redrive.message.MessageIds;
import java.time.Clock;
import javax.sql.DataSource;

/**
 * The parts of one {@link JdbcStore}, built once over its data source and dialect and wired
 * together: the transactions, the wake-ups and the statement classes the store's calls run.
 */
record StoreParts(
    DataSource dataSource,
    Transactions tx,
    CountedWrites counted,
    ReadySignals signals,
    QueueRows queues,
    MessageRows messages,
    HistoryRows history,
    CompletionRows completions,
    ThroughputRows throughput,
    PendingThroughput pendingThroughput,
    Producing producing,
    LeaseTransactions leases,
    SettleTransactions settles,
    Renewing renewing,
    UndeliveredLeases undelivered,
    Inspecting inspecting,
    Operating operating,
    DeadGroups deadGroups,
    FingerprintFill fingerprints,
    Workflows workflows,
    ScheduleRows scheduleRows,
    ScheduleFiring scheduleFiring) {

  /**
   * @param schema a lower-case SQL identifier, or null when tables need no schema name
   */
  static StoreParts wire(DataSource dataSource, SqlDialect dialect, String schema) {
    ReadySignals signals = new ReadySignals();
    Workflows workflows = new Workflows(dialect, () -> signals.signal(Workflows.SIGNAL));
    Transactions tx =
        new Transactions(
            dataSource,
            dialect,
            schema == null ? null : new SchemaQualifier(schema),
            new TurnWakeups(workflows));
    QueueRows queues = new QueueRows(dialect);
    QueueKinds kinds = new QueueKinds(workflows.activityEndings(), Workflows.NOT_AN_ACTIVITY);
    MessageRows messages = new MessageRows(dialect, kinds);
    HistoryRows history = new HistoryRows();
    // Dead-letter copies only need unique, time-ordered ids; the wall clock is fine for the time
    // part since serve order never reads ids.
    DeadLettering deadLettering =
        new DeadLettering(messages, history, () -> MessageIds.next(Clock.systemUTC()));
    CompletionRows completions = new CompletionRows(dialect);
    ThroughputRows throughput = new ThroughputRows(dialect);
    PendingThroughput pending = new PendingThroughput(tx, throughput);
    CountedWrites counted = new CountedWrites(tx, throughput, pending);
    Leasing leasing = new Leasing(dialect, queues, history, deadLettering, kinds);
    Settling settling = new Settling(dialect, messages, history, completions, deadLettering, kinds);
    DeadGroups deadGroups = new DeadGroups(dialect, history);
    Producing producing = new Producing(dialect, queues, messages, history, completions, kinds);
    ScheduleRows scheduleRows = new ScheduleRows(dialect);
    return new StoreParts(
        dataSource,
        tx,
        counted,
        signals,
        queues,
        messages,
        history,
        completions,
        throughput,
        pending,
        producing,
        new LeaseTransactions(tx, counted, leasing),
        new SettleTransactions(counted, settling, leasing),
        new Renewing(messages),
        new UndeliveredLeases(dialect, messages, history),
        new Inspecting(queues, history, dialect),
        new Operating(dialect, queues, messages, history, deadLettering),
        deadGroups,
        new FingerprintFill(tx, deadGroups),
        workflows,
        scheduleRows,
        new ScheduleFiring(scheduleRows, producing, workflows));
  }
}
