package io.redrive.bench.scenario;

import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.RawQueue;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

/** The baseline drain: prefill {@code jobs}, then W JDBC clients cycle until nothing is ready. */
final class RawDrain {
  private RawDrain() {}

  static Measurement run(BenchDatabase db, int count, int clients, int batch) throws Exception {
    RawQueue raw = db.raw();
    try (Connection c = db.connect()) {
      raw.createSchema(c);
      raw.fill(c, count, 0, 0);
    }
    List<Connection> connections = new ArrayList<>();
    List<RawQueue.Consumer> consumers = new ArrayList<>();
    try {
      for (int i = 0; i < clients; i++) {
        Connection c = db.connect();
        connections.add(c);
        consumers.add(raw.consumer(c, batch, i + 1));
      }
      long[] done = new long[clients];
      db.resetStatements();
      long nanos =
          Parallel.run(
              clients,
              w -> {
                RawQueue.Consumer consumer = consumers.get(w);
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
    } finally {
      for (Connection c : connections) {
        c.close();
      }
    }
  }
}
