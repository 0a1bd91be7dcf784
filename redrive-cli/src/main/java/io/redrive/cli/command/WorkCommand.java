package io.redrive.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.time.DurationText;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code redrive work}: a worker for any program. Leases one message at a time, runs the command
 * with the payload on its standard input, and settles by the command's exit code.
 *
 * <p>This class holds the options and the lease loop; one message's run is {@link GiveBackHook}
 * (stopped: give the lease back), {@link HandlerProcess} (CMD running, the lease renewed) and
 * {@link ExitSettle} (its exit code to a settle).
 */
@Command(
    name = "work",
    mixinStandardHelpOptions = true,
    description = {
      "Leases messages one at a time and runs CMD (with sh -c) for each: the payload (its JSON",
      "text as the server sent it) on standard input; REDRIVE_MESSAGE_ID, REDRIVE_MESSAGE_TYPE, REDRIVE_QUEUE, REDRIVE_ATTEMPT,",
      "REDRIVE_MAX_ATTEMPTS, REDRIVE_STREAM and REDRIVE_LEASE_TOKEN in its environment, and",
      "TRACEPARENT (and TRACESTATE) when the message carries a valid traceparent header.",
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
      names = "--type",
      paramLabel = "TYPE",
      description = {
        "Work only on messages of this type; repeat for several (default: every type).",
        "Messages of other types are left untouched for the workers that handle them."
      })
  List<String> types;

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
              LeaseCommand.leaseBody(worker, 1, waitFor, leaseTimeout, types));
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

  /** Runs CMD for one leased message and settles it; true when it completed. */
  private boolean handle(ApiClient client, Output output, JsonNode message, String payload) {
    String token = Fields.text(message, "token");
    GiveBackHook hook = GiveBackHook.install(client, output, message);
    Process started;
    try {
      started = hook.start(HandlerProcess.command(shell, command, queue, message));
    } catch (IOException e) {
      hook.remove();
      // The command cannot run at all: give the attempt back and stop, it is not the message's
      // fault.
      GiveBackHook.giveBack(client, token, "redrive work could not start CMD");
      throw CliException.local(
          "EXEC_FAILED", "cannot run --exec \"" + command + "\": " + e.getMessage());
    }
    HandlerProcess process = new HandlerProcess(started, output, result);
    int exit;
    try {
      exit = process.feedAndWait(client, message, payload);
    } finally {
      hook.remove();
    }
    if (hook.stopped()) {
      hook.awaitGiveBack();
      throw CliException.local("STOPPED", "stopped while CMD ran: its lease was given back");
    }
    process.drain();
    return ExitSettle.settle(client, output, token, exit, process.stdout(), process.stderrTail());
  }

  private static JsonNode tree(String text) {
    try {
      return ApiClient.json().readTree(text);
    } catch (JsonProcessingException e) {
      throw new CliException(200, "BAD_RESPONSE", "the server's lease answer is not JSON", e);
    }
  }
}
