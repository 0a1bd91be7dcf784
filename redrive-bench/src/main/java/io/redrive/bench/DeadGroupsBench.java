package io.redrive.bench;

import io.redrive.Redrive;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Target;
import io.redrive.deadletter.DeadGroup;
import io.redrive.deadletter.DeadGroupPage;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import io.redrive.store.Store;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Dead-letter groups on a large dead set (docs/benchmarks.md): a queue is filled through the engine
 * with {@code dead} dead messages of {@code causes} causes (enqueue, lease and fail in batches of
 * 1000, each failure with its own numbers in message and stack trace), then {@link
 * Redrive#deadGroups} is timed cold (first call on a newly opened store) and warm (median of
 * repeated calls), for the queue and for every queue, with the first page of a group's messages
 * listed by fingerprint; and once more after the fingerprints were cleared, as on a database
 * upgraded with dead rows (the first grouped read fills them).
 *
 * <p>Run: {@code java -cp redrive-bench/target/redrive-bench.jar io.redrive.bench.DeadGroupsBench
 * [stores] [dead] [causes]}, e.g. {@code sqlite,postgres 100000 20}.
 */
public final class DeadGroupsBench {
  private static final String QUEUE = "orders";
  private static final int BATCH = 1000;
  private static final int WARM_CALLS = 15;
  private static final String[] EXCEPTIONS = {
    "java.lang.IllegalStateException",
    "java.io.UncheckedIOException",
    "java.net.SocketTimeoutException",
    "com.shop.PaymentDeclinedException",
    "java.lang.NullPointerException"
  };
  private static final String[] METHODS = {"charge", "refund", "capture", "authorize"};

  /**
   * One store's figures, times in milliseconds.
   *
   * @param store sqlite or postgres
   * @param dead dead messages
   * @param groups groups found
   * @param fillSeconds time to kill them all through the engine
   * @param groupsColdMs first {@code deadGroups(queue)} on a newly opened store
   * @param groupsWarmMs median of repeated {@code deadGroups(queue)}
   * @param allQueuesWarmMs median of repeated {@code deadGroups(null)}
   * @param groupsVacuumedMs median of repeated {@code deadGroups(queue)} after a VACUUM
   *     (PostgreSQL: index-only scans without heap visits once the table is all-visible)
   * @param listColdMs first page (100) of the largest group, first call on a new store
   * @param listWarmMs median of repeated first pages
   * @param upgradeFirstMs first {@code deadGroups(queue)} when every fingerprint is missing
   */
  public record Result(
      String store,
      int dead,
      int groups,
      double fillSeconds,
      double groupsColdMs,
      double groupsWarmMs,
      double allQueuesWarmMs,
      double groupsVacuumedMs,
      double listColdMs,
      double listWarmMs,
      double upgradeFirstMs) {}

  private DeadGroupsBench() {}

  public static void main(String[] args) {
    List<String> stores = List.of((args.length > 0 ? args[0] : "sqlite,postgres").split(","));
    int dead = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int causes = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    StringBuilder table =
        new StringBuilder(
            "| store | dead | groups | fill s | groups cold ms | groups warm ms | all queues warm"
                + " ms | groups warm after VACUUM ms | list by fingerprint cold ms | warm ms | first read"
                + " after upgrade ms |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (String s : stores) {
      try (Target target = CallPathTiming.target(s)) {
        Result r = run(target, dead, causes);
        table.append(
            String.format(
                "| %s | %d | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f |%n",
                r.store(),
                r.dead(),
                r.groups(),
                r.fillSeconds(),
                r.groupsColdMs(),
                r.groupsWarmMs(),
                r.allQueuesWarmMs(),
                r.groupsVacuumedMs(),
                r.listColdMs(),
                r.listWarmMs(),
                r.upgradeFirstMs()));
      }
    }
    System.out.print(table);
  }

  /** Fills a fresh database of {@code target} and times the grouped reads. */
  public static Result run(Target target, int dead, int causes) {
    if (dead < 1 || causes < 1 || causes > EXCEPTIONS.length * METHODS.length) {
      throw new IllegalArgumentException(
          "dead: at least 1; causes: 1 to " + EXCEPTIONS.length * METHODS.length);
    }
    try (BenchDatabase db = target.newDatabase()) {
      long fillStart = System.nanoTime();
      try (Store store = db.openStore(4)) {
        Redrive redrive = Redrive.builder(store).build();
        redrive.createQueue(QUEUE);
        redrive.createQueue("other");
        fill(redrive, dead, causes);
      }
      double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
      db.analyze(List.of("redrive_messages", "redrive_history"));

      double groupsCold;
      double listCold;
      double groupsWarm;
      double allWarm;
      double listWarm;
      double groupsVacuumed;
      int groups;
      try (Store store = db.openStore(4)) {
        Redrive redrive = Redrive.builder(store).build();
        long t = System.nanoTime();
        DeadGroupPage page = redrive.deadGroups(QUEUE, 100);
        groupsCold = ms(t);
        groups = page.groups().size();
        DeadGroup largest = page.groups().get(0);
        MessageQuery byGroup = MessageQuery.all(QUEUE).withFingerprint(largest.fingerprint());
        t = System.nanoTime();
        int listed = redrive.listMessages(byGroup).messages().size();
        listCold = ms(t);
        if (listed != Math.min(100, largest.count())) {
          throw new IllegalStateException("listed " + listed + " of group " + largest);
        }
        groupsWarm = median(() -> redrive.deadGroups(QUEUE, 100));
        allWarm = median(() -> redrive.deadGroups(null, 100));
        listWarm = median(() -> redrive.listMessages(byGroup));
        if (target.name().equals("postgres")) {
          sql(db, "VACUUM redrive_messages");
        }
        groupsVacuumed = median(() -> redrive.deadGroups(QUEUE, 100));
      }

      forgetFingerprints(db);
      double upgradeFirst;
      try (Store store = db.openStore(4)) {
        Redrive redrive = Redrive.builder(store).build();
        long t = System.nanoTime();
        int again = redrive.deadGroups(QUEUE, 100).groups().size();
        upgradeFirst = ms(t);
        if (again != groups) {
          throw new IllegalStateException("after the fill: " + again + " groups, not " + groups);
        }
      }
      return new Result(
          target.name(),
          dead,
          groups,
          fillSeconds,
          groupsCold,
          groupsWarm,
          allWarm,
          groupsVacuumed,
          listCold,
          listWarm,
          upgradeFirst);
    }
  }

  /** Kills {@code dead} messages, message i of cause i % causes, in batches of 1000. */
  private static void fill(Redrive redrive, int dead, int causes) {
    int done = 0;
    while (done < dead) {
      int n = Math.min(BATCH, dead - done);
      List<NewMessage> batch = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        batch.add(
            NewMessage.builder(QUEUE, "charge-card").payload("{\"n\":" + (done + i) + "}").build());
      }
      redrive.enqueueBatch(batch);
      List<LeasedMessage> leased =
          redrive.lease(LeaseRequest.of(QUEUE, "bench", LeaseRequest.MAX_BATCH)).leased();
      List<FailRequest> fails = new ArrayList<>(leased.size());
      for (LeasedMessage m : leased) {
        int number = done + fails.size();
        int cause = number % causes;
        String exception = EXCEPTIONS[cause % EXCEPTIONS.length];
        String method = METHODS[cause / EXCEPTIONS.length];
        String text = "order " + number + " failed after " + (number % 977) + "ms";
        fails.add(
            FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, text)
                .withRetryable(false)
                .withStackTrace(
                    exception
                        + ": "
                        + text
                        + "\n\tat com.shop.Billing."
                        + method
                        + "(Billing.java:"
                        + (40 + number % 7)
                        + ")\n\tat com.shop.Worker.handle(Worker.java:12)\n"
                        + "\tat io.redrive.worker.Runner.run(Runner.java:200)\n"));
      }
      redrive.failAll(fails);
      done += leased.size();
    }
  }

  private static void forgetFingerprints(BenchDatabase db) {
    sql(db, "UPDATE redrive_messages SET dead_fingerprint = NULL");
  }

  private static void sql(BenchDatabase db, String statement) {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute(statement);
    } catch (SQLException e) {
      throw new IllegalStateException(statement + " failed", e);
    }
  }

  private static double median(Runnable call) {
    double[] times = new double[WARM_CALLS];
    for (int i = 0; i < WARM_CALLS; i++) {
      long t = System.nanoTime();
      call.run();
      times[i] = ms(t);
    }
    Arrays.sort(times);
    return times[WARM_CALLS / 2];
  }

  private static double ms(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }
}
