package io.redrive.bench;

import io.redrive.Redrive;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Payload;
import io.redrive.bench.contender.Target;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Times the engine's store calls of a drain without the worker: a backlog enqueued 100 per call,
 * then {@code lease(batch)} and {@code completeAll} of what it leased, one after another on one
 * thread until the queue is empty. It splits a drain's cost into enqueue, lease and complete per
 * message and shows how much of the worker's drain rate (scenario 2) the store calls alone allow,
 * which is where the time goes when the worker is not the limit.
 *
 * <p>Run: {@code java -cp redrive-bench/target/redrive-bench.jar io.redrive.bench.StoreLoopTiming
 * [messages] [rounds] [stores] [batches] [retentions]}, e.g. {@code 30000 3 sqlite,postgres
 * 1,10,100 0s,24h}: with several retentions of completed messages each round runs them one after
 * another, in turn, so the cost of keeping completed messages' stories is measured side by side.
 */
public final class StoreLoopTiming {
  /**
   * One measured round's per-message times, in microseconds, and (PostgreSQL) the drain's
   * statements and WAL bytes per message (-1 where the database cannot tell).
   */
  public record Timing(
      String store,
      int batch,
      int messages,
      double enqueue,
      double lease,
      double complete,
      Duration retention,
      double drainStatements,
      double drainWalBytes) {
    /** Lease plus complete: what one message of a drain costs the store. */
    public double drainMicros() {
      return lease + complete;
    }
  }

  private static final String QUEUE = "loop";

  private StoreLoopTiming() {}

  public static void main(String[] args) {
    int messages = args.length > 0 ? Integer.parseInt(args[0]) : 30_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    List<String> stores = List.of((args.length > 2 ? args[2] : "sqlite,postgres").split(","));
    List<Integer> batches = new ArrayList<>();
    for (String b : (args.length > 3 ? args[3] : "1,10,100").split(",")) {
      batches.add(Integer.parseInt(b.trim()));
    }
    List<Duration> retentions = new ArrayList<>();
    for (String r : (args.length > 4 ? args[4] : "0s").split(",")) {
      retentions.add(io.redrive.time.DurationText.parse("retentions", r.trim()));
    }
    StringBuilder table =
        new StringBuilder(
            "| store | lease batch | completed kept | messages | enqueue µs/msg | lease µs/msg"
                + " | complete µs/msg | store calls alone, msgs/s | drain statements/msg"
                + " | drain WAL bytes/msg |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (String s : stores) {
      try (Target target = CallPathTiming.target(s)) {
        for (int batch : batches) {
          for (int round = 0; round <= rounds; round++) {
            for (Duration retention : retentions) {
              Timing t = run(target, batch, messages, retention);
              if (round == 0) {
                continue; // warm-up: class loading and JIT compilation
              }
              table.append(
                  String.format(
                      "| %s | %d | %s | %d | %.1f | %.1f | %.1f | %,.0f | %.2f | %,.0f |%n",
                      t.store(),
                      t.batch(),
                      io.redrive.time.DurationText.format(t.retention()),
                      t.messages(),
                      t.enqueue(),
                      t.lease(),
                      t.complete(),
                      1e6 / t.drainMicros(),
                      t.drainStatements(),
                      t.drainWalBytes()));
            }
          }
        }
      }
    }
    System.out.println(table);
  }

  /** {@link #run(Target, int, int, Duration)} keeping no completed message. */
  public static Timing run(Target target, int batch, int messages) {
    return run(target, batch, messages, Duration.ZERO);
  }

  /**
   * One round on a fresh database: enqueue {@code messages}, then lease and complete them all, the
   * engine keeping completed messages' stories for {@code retention}.
   */
  public static Timing run(Target target, int batch, int messages, Duration retention) {
    if (batch < 1 || batch > LeaseRequest.MAX_BATCH || messages < 1) {
      throw new IllegalArgumentException(
          "batch: 1 to " + LeaseRequest.MAX_BATCH + "; messages at least 1");
    }
    try (BenchDatabase db = target.newDatabase();
        Store store = db.openStore(4)) {
      Redrive redrive = Redrive.builder(store).completedRetention(retention).build();
      redrive.createQueue(QUEUE);
      long start = System.nanoTime();
      for (int from = 0; from < messages; from += 100) {
        int n = Math.min(100, messages - from);
        List<NewMessage> chunk = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          chunk.add(NewMessage.builder(QUEUE, "t").payload(Payload.JSON).build());
        }
        redrive.enqueueBatch(chunk);
      }
      long enqueued = System.nanoTime();
      db.analyze(List.of("redrive_messages"));
      long walBefore = walPosition(db);
      db.resetStatements();
      long leaseNanos = 0;
      long completeNanos = 0;
      int done = 0;
      LeaseRequest request = new LeaseRequest(QUEUE, "loop", batch, Duration.ofMinutes(10));
      while (true) {
        long t0 = System.nanoTime();
        List<LeasedMessage> leased = redrive.lease(request).leased();
        long t1 = System.nanoTime();
        leaseNanos += t1 - t0;
        if (leased.isEmpty()) {
          break;
        }
        List<String> tokens = new ArrayList<>(leased.size());
        for (LeasedMessage m : leased) {
          tokens.add(m.token());
        }
        redrive.completeAll(tokens);
        completeNanos += System.nanoTime() - t1;
        done += leased.size();
      }
      if (done != messages) {
        throw new IllegalStateException("drained " + done + " of " + messages + " messages");
      }
      io.redrive.bench.contender.StatementStats ran = db.statements();
      long walAfter = walPosition(db);
      return new Timing(
          target.name(),
          batch,
          messages,
          (enqueued - start) / 1e3 / messages,
          leaseNanos / 1e3 / messages,
          completeNanos / 1e3 / messages,
          retention,
          ran == null ? -1 : ran.calls() / (double) messages,
          walBefore < 0 ? -1 : (walAfter - walBefore) / (double) messages);
    }
  }

  /** The server's WAL insert position in bytes, or -1 where there is none (SQLite). */
  private static long walPosition(BenchDatabase db) {
    if (!db.url().startsWith("jdbc:postgresql:")) {
      return -1;
    }
    try (java.sql.Connection c = db.connect();
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT pg_current_wal_insert_lsn() - '0/0'")) {
      rs.next();
      return rs.getLong(1);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("reading the WAL position: " + e.getMessage(), e);
    }
  }
}
