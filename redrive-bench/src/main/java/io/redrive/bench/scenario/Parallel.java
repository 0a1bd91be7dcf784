package io.redrive.bench.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/** Runs n clients on their own threads, released together; timed from release to the last end. */
final class Parallel {
  /** One client's whole run. */
  interface Client {
    void run(int index) throws Exception;
  }

  private Parallel() {}

  /** Runs the clients and returns the elapsed nanoseconds; rethrows the first client failure. */
  static long run(int clients, Client client) throws Exception {
    CountDownLatch ready = new CountDownLatch(clients);
    CountDownLatch go = new CountDownLatch(1);
    AtomicReference<Exception> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      int index = i;
      Thread t =
          new Thread(
              () -> {
                ready.countDown();
                try {
                  go.await();
                  client.run(index);
                } catch (Exception e) {
                  failure.compareAndSet(null, e);
                }
              },
              "bench-client-" + i);
      t.start();
      threads.add(t);
    }
    ready.await();
    long start = System.nanoTime();
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    long elapsed = System.nanoTime() - start;
    if (failure.get() != null) {
      throw failure.get();
    }
    return elapsed;
  }

  /** {@code total} split over {@code clients}: the share of client {@code index}. */
  static int share(int total, int clients, int index) {
    return total / clients + (index < total % clients ? 1 : 0);
  }
}
