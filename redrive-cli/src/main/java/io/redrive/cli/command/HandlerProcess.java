package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.trace.TraceParent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * CMD running for one leased message: its standard output and error pass through to the CLI's (one
 * pump thread each, keeping the tails a settle carries), the payload goes to its standard input,
 * and the lease is renewed while it runs.
 */
final class HandlerProcess {
  private final Process process;
  private final Tail stdout; // null unless its output is the result
  private final Tail stderr = new Tail(ExitSettle.STDERR_TAIL);
  private final Thread out;
  private final Thread err;

  /** Starts passing on what {@code process} writes; keeps its whole output when it is a result. */
  HandlerProcess(Process process, Output output, boolean outputIsResult) {
    this.process = process;
    // With --result the whole output is the result; the server refuses one over its payload limit.
    this.stdout = outputIsResult ? new Tail(ExitSettle.RESULT_MAX) : null;
    this.out = pump(process.getInputStream(), output.out(), stdout, "redrive-work-stdout");
    this.err = pump(process.getErrorStream(), output.err(), stderr, "redrive-work-stderr");
  }

  /**
   * How CMD is started for {@code message}: through {@code shell}, with the message's id, type,
   * queue, attempt, stream and lease token in its environment.
   */
  static ProcessBuilder command(List<String> shell, String command, String queue, JsonNode m) {
    List<String> argv = new ArrayList<>(shell);
    argv.add(command);
    ProcessBuilder pb = new ProcessBuilder(argv);
    Map<String, String> env = pb.environment();
    env.put("REDRIVE_MESSAGE_ID", Fields.text(m, "id", ""));
    env.put("REDRIVE_MESSAGE_TYPE", Fields.text(m, "type", ""));
    env.put("REDRIVE_QUEUE", Fields.text(m, "queue", queue));
    env.put("REDRIVE_ATTEMPT", Fields.text(m, "attempt", ""));
    env.put("REDRIVE_MAX_ATTEMPTS", Fields.text(m, "maxAttempts", ""));
    env.put("REDRIVE_STREAM", Fields.text(m, "stream", ""));
    env.put("REDRIVE_LEASE_TOKEN", Fields.text(m, "token", ""));
    traceContext(m.path("headers"), env);
    return pb;
  }

  /**
   * The message's W3C trace context for CMD, as OpenTelemetry's environment-variable carriers name
   * it: {@code TRACEPARENT} from a valid {@code traceparent} header, with {@code TRACESTATE} when
   * the message has one; neither for a message without a valid {@code traceparent}.
   */
  private static void traceContext(JsonNode headers, Map<String, String> env) {
    String parent = headers.path(TraceParent.HEADER).asText(null);
    if (TraceParent.parse(parent).isEmpty()) {
      return;
    }
    env.put("TRACEPARENT", parent);
    String state = headers.path(TraceParent.STATE_HEADER).asText(null);
    if (state != null && !state.isBlank()) {
      env.put("TRACESTATE", state);
    }
  }

  /**
   * Writes {@code payload} to CMD's standard input and waits for it to exit, renewing the lease of
   * {@code message} at half of its remaining time; returns the exit code.
   */
  int feedAndWait(ApiClient client, JsonNode message, String payload) {
    feed(payload);
    return waitRenewing(client, Fields.text(message, "token"), leaseExpiry(message));
  }

  /** Waits until everything CMD wrote has been passed on. */
  void drain() {
    join(out);
    join(err);
  }

  /** CMD's standard output (its tail), or null when it is not the result. */
  String stdout() {
    return stdout == null ? null : stdout.text();
  }

  /** The tail of CMD's standard error. */
  String stderrTail() {
    return stderr.text();
  }

  private void feed(String payload) {
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(payload.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // the command exited or closed its input without reading it all: its exit code decides
    }
  }

  private int waitRenewing(ApiClient client, String token, Instant expiry) {
    try {
      while (true) {
        long left = Duration.between(Instant.now(), expiry).toMillis();
        if (process.waitFor(Math.max(200, left / 2), TimeUnit.MILLISECONDS)) {
          return process.exitValue();
        }
        JsonNode renewed = client.post("/v1/leases/" + ApiClient.segment(token) + "/renew", null);
        expiry = leaseExpiry(renewed);
      }
    } catch (InterruptedException e) {
      process.destroy();
      Thread.currentThread().interrupt();
      throw new CliException(0, "INTERRUPTED", "interrupted while the command ran");
    } catch (RuntimeException e) {
      process.destroy(); // the lease is lost or the server is gone: nobody can settle this run
      throw e;
    }
  }

  private static Instant leaseExpiry(JsonNode node) {
    String text = Fields.text(node, "leaseExpiresAt");
    try {
      return text == null ? Instant.now().plusSeconds(30) : Instant.parse(text);
    } catch (DateTimeParseException e) {
      return Instant.now().plusSeconds(30);
    }
  }

  private static Thread pump(InputStream in, PrintWriter to, Tail tail, String name) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[8192];
              try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  String text = new String(buffer, 0, n, StandardCharsets.UTF_8);
                  synchronized (to) {
                    to.print(text);
                    to.flush();
                  }
                  if (tail != null) {
                    tail.append(text);
                  }
                }
              } catch (IOException e) {
                // the process is gone; what it wrote so far has been passed on
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
