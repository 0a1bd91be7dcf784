package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "retry",
    mixinStandardHelpOptions = true,
    description = {
      "Puts dead messages back to ready in place, attempts reset (history kept).",
      "Give ids (or unique prefixes), or --queue with --all-dead or --status:",
      "  dead    every dead message of the queue (same as --all-dead)",
      "  failed  dead messages that a handler failed: every dead reason except POISON",
      "          (exceeded maxAttempts at lease) and EXPIRED (deadline passed)",
      "Reports retried, skipped (not dead) and not found. Exit 0 when every message was",
      "retried, 3 when some were not found, 4 when some were skipped."
    })
final class MessageRetryCommand extends ApiCommand {
  /** Dead reasons that are not a handler's failure: the engine decided them. */
  static final Set<String> NOT_FAILED = Set.of("POISON", "EXPIRED");

  private static final int BATCH = 500;

  @Parameters(arity = "0..*", paramLabel = "ID", description = "Message ids or unique id prefixes.")
  List<String> ids;

  @Option(names = "--queue", paramLabel = "QUEUE", description = "Retry by filter in this queue.")
  String queue;

  @Option(names = "--all-dead", description = "Every dead message of --queue.")
  boolean allDead;

  @Option(
      names = "--status",
      paramLabel = "dead|failed",
      description =
          "dead: every dead message; failed: dead ones a handler failed (not POISON/EXPIRED).")
  String status;

  @Option(names = "--type", paramLabel = "TYPE", description = "With --queue: only this type.")
  String type;

  @Option(
      names = "--dead-reason",
      paramLabel = "REASON",
      description = "With --queue: only messages dead for this reason.")
  String deadReason;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "10000",
      description = "With --queue: most messages to retry (default: ${DEFAULT-VALUE}).")
  int limit;

  @Override
  int run(ApiClient client, Output output) {
    boolean byIds = ids != null && !ids.isEmpty();
    boolean failedOnly = checkArgs(byIds);
    List<String> targets;
    List<String> notFound = new ArrayList<>();
    if (byIds) {
      Ids.Resolved resolved = Ids.resolve(client, ids);
      targets = resolved.ids();
      notFound.addAll(resolved.notFound());
    } else {
      targets =
          DeadMessages.ids(
              client,
              queue,
              type,
              deadReason == null ? null : deadReason.trim().toUpperCase(Locale.ROOT),
              limit,
              m -> !failedOnly || !NOT_FAILED.contains(Fields.text(m, "deadReason", "")));
    }
    List<String> retried = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (int from = 0; from < targets.size(); from += BATCH) {
      ObjectNode body = ApiClient.object();
      ArrayNode array = body.putArray("ids");
      targets.subList(from, Math.min(targets.size(), from + BATCH)).forEach(array::add);
      JsonNode result = client.post("/v1/messages/retry", body);
      result.path("retried").forEach(n -> retried.add(n.asText()));
      result.path("skipped").forEach(n -> skipped.add(n.asText()));
      result.path("notFound").forEach(n -> notFound.add(n.asText()));
    }
    report(output, byIds, retried, skipped, notFound);
    if (!notFound.isEmpty()) {
      return ExitCode.NOT_FOUND.code();
    }
    return skipped.isEmpty() ? 0 : ExitCode.CONFLICT.code();
  }

  private boolean checkArgs(boolean byIds) {
    if (byIds == (queue != null)) {
      throw CliException.usage("give message ids, or --queue QUEUE with --all-dead or --status");
    }
    if (byIds && (allDead || status != null || type != null || deadReason != null)) {
      throw CliException.usage(
          "--all-dead, --status, --type and --dead-reason need --queue instead of ids");
    }
    if (!byIds && allDead == (status != null)) {
      throw CliException.usage(
          "with --queue give exactly one of --all-dead or --status dead|failed");
    }
    if (status == null) {
      return false;
    }
    String s = status.trim().toLowerCase(Locale.ROOT);
    if (!s.equals("dead") && !s.equals("failed")) {
      throw CliException.usage("--status: expected dead or failed, was \"" + status + "\"");
    }
    return s.equals("failed");
  }

  private static void report(
      Output output,
      boolean byIds,
      List<String> retried,
      List<String> skipped,
      List<String> notFound) {
    if (output.json()) {
      ObjectNode json = ApiClient.object();
      retried.forEach(json.putArray("retried")::add);
      skipped.forEach(json.putArray("skipped")::add);
      notFound.forEach(json.putArray("notFound")::add);
      output.print(json);
      return;
    }
    output.line(
        "retried "
            + retried.size()
            + ", skipped "
            + skipped.size()
            + " (not dead), not found "
            + notFound.size());
    if (byIds) {
      retried.forEach(id -> output.line("  retried    " + id));
    }
    skipped.forEach(id -> output.line("  skipped    " + id + " (not dead)"));
    notFound.forEach(id -> output.line("  not found  " + id));
  }
}
