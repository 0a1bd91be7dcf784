package io.redrive.bench.scenario;

import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.RawQueue;

/**
 * The baseline drain: prefill {@code jobs}, then W JDBC clients cycle until nothing is ready;
 * {@code atStart} runs once they are connected, just before the timing starts.
 */
final class RawDrain {
  private RawDrain() {}

  static Measurement run(BenchDatabase db, int count, int clients, int batch, Runnable atStart)
      throws Exception {
    RawQueue raw = RawClients.createSchema(db, count);
    try (RawClients<RawQueue.Consumer> consumers =
        RawClients.open(db, clients, (c, i) -> raw.consumer(c, batch, i + 1))) {
      long[] done = new long[clients];
      long nanos =
          consumers.run(
              () -> {
                db.resetStatements();
                atStart.run();
              },
              (consumer, w) -> {
                int got;
                while ((got = consumer.cycle()) > 0) {
                  done[w] += got;
                }
              });
      long total = 0;
      for (long d : done) {
        total += d;
      }
      if (total != count) {
        throw new IllegalStateException("baseline drained " + total + " of " + count + " rows");
      }
      return StatementReport.withStatements(
          Measurement.of(total, nanos),
          db,
          "baseline drain clients=" + clients + " batch=" + batch,
          total);
    }
  }
}
