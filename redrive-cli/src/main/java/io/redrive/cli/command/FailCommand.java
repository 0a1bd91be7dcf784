package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code redrive fail}: settles a lease as failed; the queue's policy decides what follows. */
@Command(
    name = "fail",
    mixinStandardHelpOptions = true,
    description = {
      "Fails a leased message: it retries after the queue's backoff, or dies when its",
      "attempts are spent or it is not retryable (then moves to the dead-letter queue, if any).",
      "A settled or re-leased token exits 4 (LEASE_LOST) and changes nothing."
    })
public final class FailCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "TOKEN", description = "The lease token.")
  String token;

  @Option(
      names = "--reason",
      paramLabel = "REASON",
      defaultValue = "HANDLER_EXCEPTION",
      description =
          "HANDLER_EXCEPTION, VALIDATION_FAILURE, DEPENDENCY_FAILURE, TIMEOUT_EXCEEDED...,"
              + " case-insensitive (default: ${DEFAULT-VALUE}).")
  String reason;

  @Option(
      names = "--message",
      paramLabel = "TEXT",
      description = "What went wrong (shown in the history).")
  String message;

  @Option(
      names = "--not-retryable",
      description = "Dead at once instead of retrying (the reason's default otherwise).")
  boolean notRetryable;

  @Option(
      names = "--retry-after",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "Retry after this long instead of the queue's backoff.")
  String retryAfter;

  @Option(
      names = "--dependency",
      paramLabel = "NAME",
      description =
          "What it failed against (smtp, a host): counts toward that circuit on a queue with a"
              + " circuit breaker.")
  String dependency;

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode body = ApiClient.object().put("reason", reason.trim().toUpperCase(Locale.ROOT));
    if (message != null) {
      body.put("message", message);
    }
    if (notRetryable) {
      body.put("retryable", false);
    }
    if (retryAfter != null) {
      body.put("retryAfter", retryAfter);
    }
    if (dependency != null) {
      body.put("dependency", dependency);
    }
    JsonNode result = client.post("/v1/leases/" + ApiClient.segment(token) + "/fail", body);
    if (output.json()) {
      output.print(result);
    } else {
      output.line(Settles.describe("failed", result));
    }
    return 0;
  }
}
