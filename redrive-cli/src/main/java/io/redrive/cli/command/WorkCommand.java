package io.redrive.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.time.DurationText;
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
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code redrive work}: a worker for any program. Leases one message at a time, runs the command
 * with the payload on its standard input, and settles by the command's exit code.
 */
@Command(
    name = "work",
    mixinStandardHelpOptions = true,
    description = {
      "Leases messages one at a time and runs CMD (with sh -c) for each: the payload (its JSON",
      "text as the server sent it) on standard input; REDRIVE_MESSAGE_ID, REDRIVE_MESSAGE_TYPE, REDRIVE_QUEUE, REDRIVE_ATTEMPT,",
      "REDRIVE_MAX_ATTEMPTS, REDRIVE_STREAM and REDRIVE_LEASE_TOKEN in its environment.",
      "Its exit code settles the message:",
      "  0             complete",
      "  75            fail as DEPENDENCY_FAILURE (EX_TEMPFAIL: retry later, queue backoff)",
      "  65            fail as VALIDATION_FAILURE (EX_DATAERR: not retryable, dead at once)",
      "  anything else fail as HANDLER_EXCEPTION (retried with the queue's backoff)",
      "A failure's message is `exit N: ` and the tail of CMD's standard error. The lease is",
      "renewed while CMD runs. Stops when the queue is empty (after --wait), after --once or",
      "--max-messages. CMD's standard output and error pass through; one line per message",
      "goes to standard error. Stopped with Ctrl-C or SIGTERM, it stops CMD and gives the",
      "lease back (attempt refunded)."
    })
public final class WorkCommand extends ApiCommand {
  static final int EX_DATAERR = 65;
  static final int EX_TEMPFAIL = 75;

  /** Bounds of what a failure carries, below the engine's limits (4096 and 8000 chars). */
  private static final int MESSAGE_TAIL = 1000;

  private static final int STDERR_TAIL = 7000;

  /** How CMD is run: the shell and its flag; tests replace it. */
  static List<String> shell =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win")
          ? List.of("cmd.exe", "/c")
          : List.of("sh", "-c");

  @Parameters(index = "0", paramLabel = "QUEUE", description = "The queue to work on.")
  String queue;

  @Option(
      names = "--exec",
      required = true,
      paramLabel = "CMD",
      description = "The command to run per message (through sh -c).")
  String command;

  @Option(
      names = "--worker",
      paramLabel = "NAME",
      defaultValue = "cli",
      description = "Worker name recorded in the history (default: ${DEFAULT-VALUE}).")
  String worker;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "Wait up to this long for a message before stopping (default: 0s).")
  String waitFor;

  @Option(
      names = "--lease-timeout",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "Lease length, renewed while CMD runs (default: the queue's leaseTimeout).")
  String leaseTimeout;

  @Option(
      names = "--result",
      description = {
        "Complete with CMD's standard output as the result (for workflow activities):",
        "JSON as written, anything else as a JSON string."
      })
  boolean result;

  @Option(names = "--once", description = "Work on at most one message.")
  boolean once;

  @Option(names = "--max-messages", paramLabel = "N", description = "Work on at most N messages.")
  Integer maxMessages;

  @Override
  Duration requestTimeoutAtLeast() {
    return waitFor == null
        ? null
        : DurationText.parse("--wait", waitFor).plus(LeaseCommand.LONG_POLL_MARGIN);
  }

  @Override
  int run(ApiClient client, Output output) {
    if (maxMessages != null && maxMessages < 1) {
      throw CliException.usage("--max-messages: must be at least 1, was " + maxMessages);
    }
    int budget = once ? 1 : maxMessages == null ? Integer.MAX_VALUE : maxMessages;
    int completed = 0;
    int failed = 0;
    while (completed + failed < budget) {
      String text =
          client.postForText(
              LeaseCommand.leasePath(queue),
              LeaseCommand.leaseBody(worker, 1, waitFor, leaseTimeout));
      JsonNode result = tree(text);
      LeaseCommand.notes(output, result);
      JsonNode messages = result.path("messages");
      if (messages.isEmpty()) {
        if (result.path("poisoned").isEmpty() && result.path("expired").isEmpty()) {
          break;
        }
        continue; // the lease dead-lettered what it found instead: look again
      }
      JsonNode message = messages.get(0);
      if (handle(client, output, message, RawPayload.first(text))) {
        completed++;
      } else {
        failed++;
      }
    }
    if (output.json()) {
      output.print(
          ApiClient.object()
              .put("processed", completed + failed)
              .put("completed", completed)
              .put("failed", failed));
    } else {
      output.note(
          "worked on "
              + (completed + failed)
              + (completed + failed == 1 ? " message" : " messages")
              + " from "
              + queue
              + ": "
              + completed
              + " completed, "
              + failed
              + " failed");
    }
    return 0;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already stopping: the hook gives the lease back
    }
  }

  /** Runs the command for one leased message and settles it; true when it completed. */
  private boolean handle(ApiClient client, Output output, JsonNode message, String payload) {
    String token = Fields.text(message, "token");
    // Stopped (Ctrl-C, SIGTERM) while CMD runs: stop CMD and give the lease back, attempt
    // refunded, so the message is ready again at once instead of after its lease timeout. The
    // hook is in place before CMD starts, so a signal arriving just as it starts is not missed;
    // starting and stopping take the same lock, so CMD either starts before the hook kills it or
    // never starts.
    AtomicBoolean stopping = new AtomicBoolean();
    AtomicReference<Process> running = new AtomicReference<>();
    Thread giveBack =
        new Thread(
            () -> {
              synchronized (running) {
                stopping.set(true); // before CMD dies, so the run below does not settle it
                Process started = running.get();
                if (started != null) {
                  // The shell first, then what it started: killed the other way round, a shell
                  // running "a; b" would see a die and start b before its own signal arrived.
                  List<ProcessHandle> children = started.descendants().toList();
                  started.destroy();
                  children.forEach(ProcessHandle::destroy);
                }
              }
              try {
                client.post(
                    "/v1/leases/" + ApiClient.segment(token) + "/abandon",
                    ApiClient.object().put("refund", true).put("note", "redrive work was stopped"));
                output.note("stopped: gave back the lease of " + Fields.text(message, "id"));
              } catch (RuntimeException e) {
                output.note("stopped: could not give back the lease: " + e.getMessage());
              }
            },
            "redrive-work-stop");
    Runtime.getRuntime().addShutdownHook(giveBack);
    Process process;
    try {
      synchronized (running) {
        if (stopping.get()) {
          throw CliException.local("STOPPED", "stopped before CMD ran: its lease was given back");
        }
        process = start(message);
        running.set(process);
      }
    } catch (IOException e) {
      removeHook(giveBack);
      // The command cannot run at all: give the attempt back and stop, it is not the message's
      // fault.
      client.post(
          "/v1/leases/" + ApiClient.segment(token) + "/abandon",
          ApiClient.object().put("refund", true).put("note", "redrive work could not start CMD"));
      throw CliException.local(
          "EXEC_FAILED", "cannot run --exec \"" + command + "\": " + e.getMessage());
    }
    Tail stderrTail = new Tail(STDERR_TAIL);
    // With --result the whole output is the result; the server refuses one over its payload limit.
    Tail stdout = result ? new Tail(RESULT_MAX) : null;
    Thread out = pump(process.getInputStream(), output.out(), stdout, "redrive-work-stdout");
    Thread err = pump(process.getErrorStream(), output.err(), stderrTail, "redrive-work-stderr");
    int exit;
    try {
      feed(process, payload);
      exit = waitRenewing(client, process, token, leaseExpiry(message));
    } finally {
      removeHook(giveBack);
    }
    if (stopping.get()) {
      join(giveBack);
      throw CliException.local("STOPPED", "stopped while CMD ran: its lease was given back");
    }
    join(out);
    join(err);
    String path = "/v1/leases/" + ApiClient.segment(token);
    JsonNode settle;
    String verb;
    if (exit == 0) {
      settle =
          client.post(
              path + "/complete",
              stdout == null ? null : ApiClient.object().set("result", result(stdout.text())));
      verb = "completed";
    } else {
      ObjectNode body = ApiClient.object().put("reason", reason(exit));
      String tail = stderrTail.text().strip();
      String shortTail =
          tail.length() > MESSAGE_TAIL
              ? "..." + tail.substring(tail.length() - MESSAGE_TAIL)
              : tail;
      body.put("message", "exit " + exit + (shortTail.isEmpty() ? "" : ": " + shortTail));
      if (!tail.isEmpty()) {
        body.put("stackTrace", tail);
      }
      settle = client.post(path + "/fail", body);
      verb = "failed";
    }
    output.note(Settles.describe(verb, settle, exit == 0 ? "" : " (exit " + exit + ")"));
    return exit == 0;
  }

  /** Most standard output kept for {@code --result}; more is cut from the front. */
  static final int RESULT_MAX = 4 * 1024 * 1024;

  /** CMD's output as the activity's result: JSON as written, else a JSON string. */
  static JsonNode result(String stdout) {
    String text = stdout.strip();
    try {
      JsonNode parsed = ApiClient.json().readTree(text);
      if (parsed != null && !parsed.isMissingNode()) {
        return parsed;
      }
    } catch (JsonProcessingException e) {
      // not JSON: sent as text
    }
    return com.fasterxml.jackson.databind.node.TextNode.valueOf(text);
  }

  private static JsonNode tree(String text) {
    try {
      return ApiClient.json().readTree(text);
    } catch (JsonProcessingException e) {
      throw new CliException(200, "BAD_RESPONSE", "the server's lease answer is not JSON", e);
    }
  }

  /** The failure reason for a non-zero exit code (the table in the command's description). */
  static String reason(int exit) {
    if (exit == EX_TEMPFAIL) {
      return "DEPENDENCY_FAILURE";
    }
    if (exit == EX_DATAERR) {
      return "VALIDATION_FAILURE";
    }
    return "HANDLER_EXCEPTION";
  }

  private Process start(JsonNode m) throws IOException {
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
    return pb.start();
  }

  private static void feed(Process process, String payload) {
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(payload.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // the command exited or closed its input without reading it all: its exit code decides
    }
  }

  /** Waits for the command, renewing the lease at half of its remaining time. */
  private static int waitRenewing(ApiClient client, Process process, String token, Instant expiry) {
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

  /** The last {@code max} characters written to it. Thread-safe. */
  static final class Tail {
    private final int max;
    private final StringBuilder text = new StringBuilder();

    Tail(int max) {
      this.max = max;
    }

    synchronized void append(String s) {
      text.append(s);
      if (text.length() > max) {
        text.delete(0, text.length() - max);
      }
    }

    synchronized String text() {
      return text.toString();
    }
  }
}
