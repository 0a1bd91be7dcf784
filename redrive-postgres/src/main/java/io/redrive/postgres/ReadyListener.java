package io.redrive.postgres;

import io.redrive.error.JdbcUrls;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread per store holding a pooled connection that LISTENs on the store's channel and turns
 * each NOTIFY (payload: the queue, and the sending store's tag) into a local ready signal, except
 * the echoes of this store's own notifies (see {@link ReadyNotifier#queueToSignal}). Reconnects
 * with a pause after errors; wake-ups are hints, so a gap only delays workers to their next poll.
 */
final class ReadyListener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReadyListener.class);
  private static final int WAIT_MILLIS = 500;

  private final DataSource dataSource;
  private final String channel;
  private final String tag;
  private final Consumer<String> onReady;
  private Thread thread;
  private volatile boolean closed;

  ReadyListener(DataSource dataSource, String channel, String tag, Consumer<String> onReady) {
    this.dataSource = dataSource;
    this.channel = channel;
    this.tag = tag;
    this.onReady = onReady;
  }

  synchronized void start() {
    if (thread != null || closed) {
      return;
    }
    thread = new Thread(this::run, "redrive-pg-listen");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!closed) {
      try (Connection c = dataSource.getConnection()) {
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN \"" + channel.replace("\"", "\"\"") + "\"");
        }
        PGConnection pg = c.unwrap(PGConnection.class);
        while (!closed) {
          PGNotification[] notes = pg.getNotifications(WAIT_MILLIS);
          if (notes != null) {
            for (PGNotification n : notes) {
              String queue = ReadyNotifier.queueToSignal(n.getParameter(), tag);
              if (queue != null) {
                onReady.accept(queue);
              }
            }
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (!closed) {
          LOG.warn(
              "LISTEN on {} failed; reconnecting in 1s: {}", channel, JdbcUrls.mask(e.toString()));
          pause();
        }
      }
    }
  }

  private static void pause() {
    try {
      Thread.sleep(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(2 * WAIT_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
