package io.redrive.bench;

import io.redrive.Redrive;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.DurablePostgres;
import io.redrive.bench.contender.PostgresTarget;
import io.redrive.bench.contender.SqliteTarget;
import io.redrive.bench.contender.Target;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Times the engine work behind one HTTP enqueue and one HTTP settle, as the server did it before
 * ("two reads": the message loaded with its whole history to learn its queue, the queue looked up
 * before the enqueue) and as it does now ("one read": a queue-only lookup, the store's own queue
 * check). Both paths run interleaved, round by round, in one JVM on one database per store, so the
 * two columns compare like for like. The HTTP layer (Javalin, JSON) is the same on both paths and
 * is left out; calls run one after another on one thread, as one client's round trips do.
 *
 * <p>Run: {@code java -cp redrive-bench/target/redrive-bench.jar io.redrive.bench.CallPathTiming
 * [calls-per-round] [rounds] [stores]}, e.g. {@code 500 6 sqlite,postgres}.
 */
public final class CallPathTiming {
  /** The two ways of serving a call. */
  public enum Path {
    /** As before issue 11: authorise on the message with its history; look the queue up first. */
    TWO_READS,
    /** Now: authorise on the message's queue alone; the store's enqueue checks the queue. */
    ONE_READ
  }

  /** The HTTP calls timed. */
  public enum Call {
    ENQUEUE,
    COMPLETE,
    FAIL,
    /** Only the lookup a complete authorises on, its settle untimed: the read without commits. */
    COMPLETE_LOOKUP
  }

  /** Per-call times of one call on one path and store, in microseconds. */
  public record Timing(String store, Call call, Path path, int calls, double p50, double p99) {}

  private static final String QUEUE = "calls";

  private CallPathTiming() {}

  public static void main(String[] args) {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    List<String> stores = List.of((args.length > 2 ? args[2] : "sqlite,postgres").split(","));
    List<Timing> all = new ArrayList<>();
    for (String s : stores) {
      try (Target target = target(s)) {
        all.addAll(run(target, calls, rounds));
      }
    }
    System.out.println(markdown(all));
  }

  static Target target(String name) {
    return switch (name) {
      case "sqlite" -> new SqliteTarget(null);
      case "postgres" -> {
        String env = System.getenv("REDRIVE_PG_URL");
        yield new PostgresTarget(
            env != null && !env.isBlank() ? env.trim() : DurablePostgres.adminUrl());
      }
      default -> throw new IllegalArgumentException("stores: sqlite or postgres, was " + name);
    };
  }

  /**
   * Runs one warm-up round and then {@code rounds} measured ones on a fresh database of {@code
   * target}, each round timing {@code calls} calls of every kind on both paths (which path goes
   * first alternates). Every message enqueued is settled again; the result has one timing per call
   * and path.
   */
  public static List<Timing> run(Target target, int calls, int rounds) {
    if (calls < 1 || calls > LeaseRequest.MAX_BATCH || rounds < 1) {
      throw new IllegalArgumentException(
          "calls: 1 to " + LeaseRequest.MAX_BATCH + " per round and rounds at least 1");
    }
    Map<String, long[]> samples = new LinkedHashMap<>();
    Map<String, Integer> sizes = new LinkedHashMap<>();
    try (BenchDatabase db = target.newDatabase();
        Store store = db.openStore(4)) {
      Redrive redrive = Redrive.builder(store).build();
      redrive.createQueue(QUEUE);
      for (int round = 0; round <= rounds; round++) {
        boolean warmUp = round == 0;
        List<Path> order =
            round % 2 == 0
                ? List.of(Path.TWO_READS, Path.ONE_READ)
                : List.of(Path.ONE_READ, Path.TWO_READS);
        for (Call call : Call.values()) {
          for (Path path : order) {
            long[] nanos = time(redrive, call, path, calls);
            if (!warmUp) {
              String key = call + "/" + path;
              long[] kept = samples.getOrDefault(key, new long[0]);
              int from = sizes.getOrDefault(key, 0);
              kept = Arrays.copyOf(kept, from + nanos.length);
              System.arraycopy(nanos, 0, kept, from, nanos.length);
              samples.put(key, kept);
              sizes.put(key, kept.length);
            }
          }
        }
      }
      var stats = redrive.stats(QUEUE);
      if (stats.ready() + stats.leased() != 0) {
        throw new IllegalStateException("messages left unsettled: " + stats);
      }
    }
    List<Timing> out = new ArrayList<>();
    for (Call call : Call.values()) {
      for (Path path : Path.values()) {
        long[] s = samples.get(call + "/" + path);
        Arrays.sort(s);
        out.add(
            new Timing(target.name(), call, path, s.length, percentile(s, 50), percentile(s, 99)));
      }
    }
    return out;
  }

  private static long[] time(Redrive redrive, Call call, Path path, int calls) {
    long[] nanos = new long[calls];
    if (call == Call.ENQUEUE) {
      for (int i = 0; i < calls; i++) {
        List<NewMessage> one = List.of(NewMessage.builder(QUEUE, "t").payload("{}").build());
        long start = System.nanoTime();
        if (path == Path.TWO_READS) {
          redrive.getQueue(QUEUE);
        }
        redrive.enqueueBatch(one);
        nanos[i] = System.nanoTime() - start;
      }
      for (LeasedMessage m : leaseAll(redrive, calls)) {
        redrive.complete(m.token());
      }
      return nanos;
    }
    // Settles need leases: enqueue and lease them untimed, then settle each one timed.
    List<NewMessage> batch = new ArrayList<>(calls);
    for (int i = 0; i < calls; i++) {
      batch.add(NewMessage.builder(QUEUE, "t").payload("{}").build());
    }
    redrive.enqueueBatch(batch);
    List<LeasedMessage> leased = leaseAll(redrive, calls);
    for (int i = 0; i < leased.size(); i++) {
      LeasedMessage m = leased.get(i);
      long start = System.nanoTime();
      if (path == Path.TWO_READS) {
        // complete looked the message up twice (does it exist? then the auth check), fail once
        redrive.getMessage(m.id());
        if (call != Call.FAIL) {
          redrive.getMessage(m.id());
        }
      } else {
        redrive.queueOf(m.id());
      }
      if (call == Call.COMPLETE_LOOKUP) {
        nanos[i] = System.nanoTime() - start;
        redrive.complete(m.token());
        continue;
      }
      if (call == Call.COMPLETE) {
        redrive.complete(m.token());
      } else {
        redrive.fail(
            new FailRequest(m.token(), FailureReason.UNKNOWN, "bench", false, null, 0L, null));
      }
      nanos[i] = System.nanoTime() - start;
    }
    return nanos;
  }

  private static List<LeasedMessage> leaseAll(Redrive redrive, int count) {
    List<LeasedMessage> leased =
        redrive.lease(new LeaseRequest(QUEUE, "bench", count, Duration.ofMinutes(10))).leased();
    if (leased.size() != count) {
      throw new IllegalStateException("leased " + leased.size() + " of " + count + " messages");
    }
    return leased;
  }

  private static double percentile(long[] sorted, double p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e3;
  }

  /** A table: per store and call, p50 and p99 of both paths and the p50 change. */
  public static String markdown(List<Timing> timings) {
    StringBuilder sb = new StringBuilder();
    sb.append("| store | call | calls | two reads p50 µs | one read p50 µs | p50 change")
        .append(" | two reads p99 µs | one read p99 µs |\n")
        .append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i + 1 < timings.size(); i += 2) {
      Timing before = timings.get(i);
      Timing after = timings.get(i + 1);
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %.0f | %.0f | %+.0f%% | %.0f | %.0f |%n",
              before.store(),
              before.call().name().toLowerCase(Locale.ROOT),
              after.calls(),
              before.p50(),
              after.p50(),
              (after.p50() / before.p50() - 1) * 100,
              before.p99(),
              after.p99()));
    }
    return sb.toString();
  }
}
