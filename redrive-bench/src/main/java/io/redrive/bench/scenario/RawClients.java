package io.redrive.bench.scenario;

import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.RawQueue;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The baseline's schema, and its JDBC clients: each on its own connection, closed together. */
final class RawClients<T> implements AutoCloseable {
  /** Makes client {@code index} on connection {@code c}. */
  interface Maker<T> {
    T make(Connection c, int index) throws SQLException;
  }

  private final List<Connection> connections = new ArrayList<>();
  private final List<T> clients = new ArrayList<>();

  private RawClients() {}

  /**
   * Creates the baseline's schema in {@code db} with {@code ready} ready rows ({@code fill.sql})
   * and answers its statements.
   */
  static RawQueue createSchema(BenchDatabase db, long ready) throws SQLException {
    RawQueue raw = db.raw();
    try (Connection c = db.connect()) {
      raw.createSchema(c);
      if (ready > 0) {
        raw.fill(c, ready, 0, 0);
      }
    }
    return raw;
  }

  /** Connects {@code count} clients to {@code db}. */
  static <T> RawClients<T> open(BenchDatabase db, int count, Maker<T> maker) throws SQLException {
    RawClients<T> opened = new RawClients<>();
    try {
      for (int i = 0; i < count; i++) {
        Connection c = db.connect();
        opened.connections.add(c);
        opened.clients.add(maker.make(c, i));
      }
    } catch (SQLException | RuntimeException e) {
      opened.close();
      throw e;
    }
    return opened;
  }

  /** One client's whole run. */
  interface Body<T> {
    void run(T client, int index) throws Exception;
  }

  /**
   * Runs {@code atStart}, then every client on its own thread ({@link Parallel}), and answers the
   * elapsed nanoseconds.
   */
  long run(Runnable atStart, Body<T> body) throws Exception {
    atStart.run();
    return Parallel.run(clients.size(), i -> body.run(clients.get(i), i));
  }

  @Override
  public void close() throws SQLException {
    for (Connection c : connections) {
      c.close();
    }
  }
}
