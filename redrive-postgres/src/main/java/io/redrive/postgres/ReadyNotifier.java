package io.redrive.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the {@code NOTIFY} for enqueues committed by this store, from one thread, after the commit.
 *
 * <p>Implementation notes. A transaction that notifies holds PostgreSQL's notification lock from
 * its pre-commit to its end, its WAL flush included, so notifying inside every enqueue serialized
 * all producers' commits and defeated group commit. Notifying afterwards, in a tiny transaction of
 * its own, keeps the lock for microseconds; queues marked while a notify is being sent are
 * coalesced into the next round, so a burst of enqueues costs a few notifies. A notify is a hint:
 * if one is lost (error, crash between commit and notify), workers find the messages at their next
 * poll. Thread-safe.
 */
final class ReadyNotifier implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReadyNotifier.class);

  private final DataSource dataSource;
  private final String channel;
  private final Set<String> pending = ConcurrentHashMap.newKeySet();
  private final Semaphore marked = new Semaphore(0);
  private Thread thread;
  private volatile boolean closed;

  ReadyNotifier(DataSource dataSource, String channel) {
    this.dataSource = dataSource;
    this.channel = channel;
  }

  /** Marks {@code queue} as having new ready messages; the notify follows shortly. */
  void messagesReady(String queue) {
    if (closed) {
      return;
    }
    start();
    if (pending.add(queue)) {
      marked.release();
    }
  }

  private synchronized void start() {
    if (thread == null && !closed) {
      thread = new Thread(this::run, "redrive-pg-notify");
      thread.setDaemon(true);
      thread.start();
    }
  }

  private void run() {
    while (!closed) {
      try {
        if (!marked.tryAcquire(1, TimeUnit.SECONDS)) {
          continue;
        }
      } catch (InterruptedException e) {
        return;
      }
      marked.drainPermits();
      List<String> queues = new ArrayList<>();
      for (String q : pending) {
        if (pending.remove(q)) {
          queues.add(q);
        }
      }
      if (!queues.isEmpty()) {
        send(queues);
      }
    }
  }

  private void send(List<String> queues) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
      for (String queue : queues) {
        ps.setString(1, channel);
        ps.setString(2, queue);
        ps.execute();
      }
    } catch (SQLException e) {
      if (!closed) {
        LOG.debug("could not notify {} (workers will find the messages when they poll)", queues, e);
      }
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (thread != null) {
      thread.interrupt();
    }
  }
}
