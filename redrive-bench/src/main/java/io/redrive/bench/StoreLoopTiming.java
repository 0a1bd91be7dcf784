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
 * [messages] [rounds] [stores] [batches]}, e.g. {@code 30000 3 sqlite,postgres 1,10,100}.
 */
public final class StoreLoopTiming {
  /** One measured round's per-message times, in microseconds. */
  public record Timing(
      String store, int batch, int messages, double enqueue, double lease, double complete) {
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
    StringBuilder table =
        new StringBuilder(
            "| store | lease batch | messages | enqueue µs/msg | lease µs/msg | complete µs/msg"
                + " | store calls alone, msgs/s |\n|---|---|---|---|---|---|---|\n");
    for (String s : stores) {
      try (Target target = CallPathTiming.target(s)) {
        for (int batch : batches) {
          for (int round = 0; round <= rounds; round++) {
            Timing t = run(target, batch, messages);
            if (round == 0) {
              continue; // warm-up: class loading and JIT compilation
            }
            table.append(
                String.format(
                    "| %s | %d | %d | %.1f | %.1f | %.1f | %,.0f |%n",
                    t.store(),
                    t.batch(),
                    t.messages(),
                    t.enqueue(),
                    t.lease(),
                    t.complete(),
                    1e6 / t.drainMicros()));
          }
        }
      }
    }
    System.out.println(table);
  }

  /** One round on a fresh database: enqueue {@code messages}, then lease and complete them all. */
  public static Timing run(Target target, int batch, int messages) {
    if (batch < 1 || batch > LeaseRequest.MAX_BATCH || messages < 1) {
      throw new IllegalArgumentException(
          "batch: 1 to " + LeaseRequest.MAX_BATCH + "; messages at least 1");
    }
    try (BenchDatabase db = target.newDatabase();
        Store store = db.openStore(4)) {
      Redrive redrive = Redrive.builder(store).build();
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
      return new Timing(
          target.name(),
          batch,
          messages,
          (enqueued - start) / 1e3 / messages,
          leaseNanos / 1e3 / messages,
          completeNanos / 1e3 / messages);
    }
  }
}
