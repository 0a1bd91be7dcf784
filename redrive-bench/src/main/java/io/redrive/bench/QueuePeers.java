package io.redrive.bench;

/**
 * Redrive's queue against db-scheduler's and the raw-SQL baseline's on one PostgreSQL server (issue
 * 28): enqueue one message per call and transaction, enqueue in batches, and drains of a backlog by
 * T handler threads leasing B at a time, 20 000 no-op messages with the 204-byte payload by
 * default. Each system runs in its own child JVM ({@link QueueRounds}, same java and class path) on
 * a fresh database per system and repetition, the systems alternating (their order reversed every
 * other repetition), each cell on a fresh schema. The server is the one {@code REDRIVE_PG_URL}
 * names, or the benchmark's embedded one (durable settings, {@code pg_stat_statements} loaded).
 * Prints one markdown table per cell: messages per second (the median of the repetitions and their
 * range), Redrive over the system (the median of the repetitions' ratios: the db-scheduler row
 * gives Redrive / db-scheduler, the raw row Redrive / raw) and, when the server has {@code
 * pg_stat_statements}, statements, commits and WAL bytes per message (medians), else "n/a".
 *
 * <p>The systems: {@code redrive} ({@code Redrive.enqueue} / {@code enqueueBatch}, producers each
 * with its own engine over one store of P + 2 connections; a drain by one {@code Worker} of
 * concurrency T and batch size B on a store of 4 connections, polling 1–20 ms), {@code
 * db-scheduler} (16.7.1: a one-time task enqueued through a {@code SchedulerClient} with {@code
 * schedule} or {@code scheduleBatch}; drained by a scheduler of T threads with {@code
 * pollUsingLockAndFetch(1.0, 4.0)}, {@code pollingInterval(1 s)}, {@code
 * enableImmediateExecution()} and default heartbeats on a pool of T + 2; every setting and why is
 * in {@link io.redrive.bench.contender.DbSchedulerPeer}) and {@code raw} ({@code enq1.sql} by P
 * JDBC clients, in its multi-row form for batches; a drain by T clients running {@code cycle.sql}
 * with n = B). db-scheduler has no lease batch: its fetch size follows from its threads (up to 4 ×
 * T).
 *
 * <p>Counts: the server's counters are read once a run's setup is done (schema, pool, a drain's
 * backlog) and again once the system stopped and closed its connections, so a system's start and
 * stop are in them and its setup is not; every cell first runs a warm-up of a tenth of the
 * messages. WAL bytes are server-wide. A backend commits once as its connection closes, so a pool's
 * size shows in the commits (db-scheduler's 102 connections for 100 threads: 0.005 per message at
 * 20 000).
 *
 * <p>Run: {@code java -cp redrive-bench/target/redrive-bench.jar io.redrive.bench.QueuePeers
 * [repetitions] [systems] [cells] [messages] [producers]}, defaults {@code 5
 * redrive,db-scheduler,raw enqueue-1,enqueue-1000,drain-16x10,drain-100x100 20000 4}; a cell is
 * {@code enqueue-B} or {@code drain-TxB}, either with a suffix {@code +prio}, {@code +limits},
 * {@code +rate} or {@code +unique} for Redrive's flow controls in use ({@link
 * io.redrive.bench.scenario.QueueFeature}; the other systems run the plain cell). The full run, on
 * an idle machine: {@code ./mvnw -B -ntp -q -pl redrive-bench -am package -DskipTests &&
 * REDRIVE_PG_URL=jdbc:postgresql://host:port/postgres?user=postgres java -cp
 * redrive-bench/target/redrive-bench.jar io.redrive.bench.QueuePeers} (without {@code
 * REDRIVE_PG_URL}: the embedded server). The drain with 100 threads needs {@code max_connections}
 * above 110 (the embedded server has 300).
 */
public final class QueuePeers {
  private QueuePeers() {}

  public static void main(String[] args) throws Exception {
    PeerChildren.Rounds rounds =
        PeerChildren.run(
            QueueRounds.class,
            args,
            "5",
            "redrive,db-scheduler,raw",
            "enqueue-1,enqueue-1000,drain-16x10,drain-100x100",
            "20000",
            "4");
    System.out.println(PeerTable.queueMarkdown(rounds.systems(), rounds.byRepetition()));
  }
}
