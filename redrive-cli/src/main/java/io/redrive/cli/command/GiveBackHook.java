package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import java.io.IOException;
import java.util.List;

/**
 * The shutdown hook of one {@code redrive work} run: stopped (Ctrl-C, SIGTERM) while CMD runs, it
 * stops CMD and gives the lease back, attempt refunded, so the message is ready again at once
 * instead of after its lease timeout.
 *
 * <p>Two threads enter it: the work thread ({@link #install}, {@link #start}, {@link #remove},
 * {@link #stopped}, {@link #awaitGiveBack}) and the JVM's shutdown thread (the hook itself). The
 * hook is in place before CMD starts, so a signal arriving just as it starts is not missed;
 * starting and stopping take the same lock, so CMD either starts before the hook kills it or never
 * starts.
 */
final class GiveBackHook {
  private final Object lock = new Object();
  private final Thread thread;
  private volatile boolean stopping;
  private Process running; // guarded by lock

  private GiveBackHook(ApiClient client, Output output, JsonNode message) {
    String token = Fields.text(message, "token");
    this.thread =
        new Thread(
            () -> {
              synchronized (lock) {
                stopping = true; // before CMD dies, so the run does not settle it
                if (running != null) {
                  // The shell first, then what it started: killed the other way round, a shell
                  // running "a; b" would see a die and start b before its own signal arrived.
                  List<ProcessHandle> children = running.descendants().toList();
                  running.destroy();
                  children.forEach(ProcessHandle::destroy);
                }
              }
              try {
                giveBack(client, token, "redrive work was stopped");
                output.note("stopped: gave back the lease of " + Fields.text(message, "id"));
              } catch (RuntimeException e) {
                output.note("stopped: could not give back the lease: " + e.getMessage());
              }
            },
            "redrive-work-stop");
  }

  /** Puts the hook in place for the leased {@code message}, before its CMD starts. */
  static GiveBackHook install(ApiClient client, Output output, JsonNode message) {
    GiveBackHook hook = new GiveBackHook(client, output, message);
    Runtime.getRuntime().addShutdownHook(hook.thread);
    return hook;
  }

  /** Abandons the lease of {@code token} with its attempt refunded. */
  static void giveBack(ApiClient client, String token, String note) {
    client.post(
        "/v1/leases/" + ApiClient.segment(token) + "/abandon",
        ApiClient.object().put("refund", true).put("note", note));
  }

  /**
   * Starts CMD unless the hook already ran.
   *
   * @throws CliException {@code STOPPED} when the hook ran first (it gave the lease back)
   */
  Process start(ProcessBuilder command) throws IOException {
    synchronized (lock) {
      if (stopping) {
        throw CliException.local("STOPPED", "stopped before CMD ran: its lease was given back");
      }
      running = command.start();
      return running;
    }
  }

  /** Takes the hook away once CMD has ended; a no-op when the JVM is already stopping. */
  void remove() {
    try {
      Runtime.getRuntime().removeShutdownHook(thread);
    } catch (IllegalStateException e) {
      // the JVM is already stopping: the hook gives the lease back
    }
  }

  /** Whether the hook ran: CMD was stopped and the lease is the hook's to give back. */
  boolean stopped() {
    return stopping;
  }

  /** Waits until the hook has given the lease back. */
  void awaitGiveBack() {
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
