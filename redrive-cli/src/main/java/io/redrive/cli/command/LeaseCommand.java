package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code redrive lease}: takes messages as a worker would and prints them with their tokens. */
@Command(
    name = "lease",
    mixinStandardHelpOptions = true,
    description = {
      "Leases messages as a worker would and prints them with their lease tokens.",
      "Settle each with `redrive complete TOKEN` or `redrive fail TOKEN ...` before the",
      "lease times out (else it is delivered again). Every lease counts as an attempt.",
      "--quiet prints only the tokens, one per line: T=$(redrive lease orders --quiet)"
    })
public final class LeaseCommand extends ApiCommand {
  /** How much longer than its wait a lease request may take to answer. */
  static final Duration LONG_POLL_MARGIN = Duration.ofSeconds(10);

  @Parameters(index = "0", paramLabel = "QUEUE", description = "The queue to lease from.")
  String queue;

  @Option(
      names = "--worker",
      paramLabel = "NAME",
      defaultValue = "cli",
      description = "Worker name recorded in the history (default: ${DEFAULT-VALUE}).")
  String worker;

  @Option(
      names = "--max",
      paramLabel = "N",
      defaultValue = "1",
      description = "Most messages to lease, 1-1000 (default: ${DEFAULT-VALUE}).")
  int max;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "Wait up to this long for a message when none is ready (default: 0s).")
  String waitFor;

  @Option(
      names = "--lease-timeout",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "How long the lease lasts (default: the queue's leaseTimeout).")
  String leaseTimeout;

  @Option(
      names = "--type",
      paramLabel = "TYPE",
      description = {
        "Lease only messages of this type; repeat for several (default: every type).",
        "Messages of other types are left untouched for the workers that handle them."
      })
  List<String> types;

  @Option(
      names = {"-q", "--quiet"},
      description = "Print only the lease tokens, one per line.")
  boolean quiet;

  @Override
  Duration requestTimeoutAtLeast() {
    return waitFor == null ? null : DurationText.parse("--wait", waitFor).plus(LONG_POLL_MARGIN);
  }

  @Override
  int run(ApiClient client, Output output) {
    if (quiet && output.json()) {
      throw CliException.usage("give --quiet or --json, not both");
    }
    JsonNode result =
        client.post(leasePath(queue), leaseBody(worker, max, waitFor, leaseTimeout, types));
    if (output.json()) {
      output.print(result);
      return 0;
    }
    JsonNode messages = result.path("messages");
    if (quiet) {
      messages.forEach(m -> output.line(Fields.text(m, "token")));
      return 0;
    }
    if (messages.isEmpty()) {
      output.note("nothing to lease from " + queue);
    } else {
      Table table =
          Table.of("TOKEN", "TYPE", "ATTEMPT", "LEASE EXPIRES", "PAYLOAD").maxWidth(4, 60);
      for (JsonNode m : messages) {
        table.row(
            Fields.text(m, "token"),
            Fields.text(m, "type"),
            Fields.text(m, "attempt") + "/" + Fields.text(m, "maxAttempts"),
            Fields.time(m, "leaseExpiresAt"),
            payload(m.path("payload")));
      }
      output.table(table);
    }
    notes(output, result);
    return 0;
  }

  static String leasePath(String queue) {
    return "/v1/queues/" + ApiClient.segment(queue) + "/lease";
  }

  /** The lease request's body; null options (and no types) are left to the server's defaults. */
  static ObjectNode leaseBody(
      String worker, int max, String waitFor, String leaseTimeout, List<String> types) {
    ObjectNode body = ApiClient.object().put("worker", worker).put("max", max);
    if (waitFor != null) {
      body.put("wait", waitFor);
    }
    if (leaseTimeout != null) {
      body.put("leaseTimeout", leaseTimeout);
    }
    if (types != null && !types.isEmpty()) {
      types.forEach(body.putArray("types")::add);
    }
    return body;
  }

  /** Tells the operator about messages the lease call dead-lettered instead of delivering. */
  static void notes(Output output, JsonNode result) {
    int poisoned = result.path("poisoned").size();
    int expired = result.path("expired").size();
    if (poisoned > 0) {
      output.note(
          "dead-lettered "
              + poisoned
              + " as POISON (out of attempts, or crashed on maxCrashes workers) instead of leasing");
    }
    if (expired > 0) {
      output.note("dead-lettered " + expired + " as EXPIRED (past their deadline)");
    }
  }

  static String payload(JsonNode payload) {
    if (payload.isMissingNode() || payload.isNull()) {
      return "";
    }
    return payload.isTextual() ? payload.asText() : payload.toString();
  }
}
