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
 * coalesced into the next round, so a burst of enqueues costs a few notifies. Each payload carries
 * the store's tag: this store's subscribers were signalled in process already, and waking them
 * again on the echo cost every idle worker of the node an empty lease per enqueue (measured in the
 * steady-state benchmark at half load). After a send the thread waits {@link #GAP_MILLIS} ms before
 * the next, so a steady stream of single enqueues (one producer committing every few hundred
 * microseconds) costs one notify per gap rather than one per enqueue, while the first enqueue after
 * a quiet spell is told at once. A notify is a hint: if one is lost (error, crash between commit
 * and notify), workers find the messages at their next poll. Thread-safe.
 */
final class ReadyNotifier implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReadyNotifier.class);

  /** Between the queue and the sending store's tag in a payload; no queue name holds a space. */
  private static final char TAG_SEPARATOR = ' ';

  /** The least time between two sends: what other nodes may wait longer under a steady stream. */
  static final long GAP_MILLIS = 5;

  private final DataSource dataSource;
  private final String channel;
  private final String tag;
  private final Set<String> pending = ConcurrentHashMap.newKeySet();
  private final Semaphore marked = new Semaphore(0);
  private Thread thread;
  private volatile boolean closed;

  /**
   * @param tag this store's tag, sent with each notify so that the store's own {@link
   *     ReadyListener} can skip the echo of a signal its subscribers already had in process
   */
  ReadyNotifier(DataSource dataSource, String channel, String tag) {
    this.dataSource = dataSource;
    this.channel = channel;
    this.tag = tag;
  }

  /** The payload announcing {@code queue} from the store tagged {@code tag}. */
  static String payload(String queue, String tag) {
    return queue + TAG_SEPARATOR + tag;
  }

  /**
   * The queue a payload announces, or null when the store tagged {@code ownTag} sent it. A payload
   * without a tag (a notify sent inside a caller's transaction, or by an older node) is never an
   * echo: nothing signalled it in process.
   */
  static String queueToSignal(String payload, String ownTag) {
    int at = payload.lastIndexOf(TAG_SEPARATOR);
    if (at < 0) {
      return payload;
    }
    return payload.substring(at + 1).equals(ownTag) ? null : payload.substring(0, at);
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
        try {
          Thread.sleep(GAP_MILLIS); // marks made meanwhile go out together in the next send
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /** One statement for every queue marked since the last send, in auto-commit. */
  private void send(List<String> queues) {
    String[] payloads = new String[queues.size()];
    for (int i = 0; i < payloads.length; i++) {
      payloads[i] = payload(queues.get(i), tag);
    }
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT pg_notify(?, p) FROM unnest(CAST(? AS text[])) AS t(p)")) {
      ps.setString(1, channel);
      ps.setArray(2, c.createArrayOf("text", payloads));
      ps.execute();
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
