package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Progress;
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
      "With --queue the server filters and pages: every match is retried, in batches, until",
      "--limit (progress on a terminal; how many still match when --limit stops it).",
      "Reports retried, skipped (not dead) and not found. Exit 0 when every message was",
      "retried, 3 when some were not found, 4 when some were skipped."
    })
final class MessageRetryCommand extends ApiCommand {
  /** Dead reasons that are not a handler's failure: the engine decided them. */
  static final Set<String> NOT_FAILED = Set.of("POISON", "EXPIRED");

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
      names = "--fingerprint",
      paramLabel = "KEY",
      description =
          "With --queue: only dead messages of this dead-letter group (a key from `message list"
              + " --group`).")
  String fingerprint;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "With --queue: most messages to retry (default: every match).")
  Integer limit;

  @Option(
      names = "--batch",
      paramLabel = "N",
      defaultValue = "500",
      description = "Messages per request, 1-1000 (default: ${DEFAULT-VALUE}).")
  int batch;

  @Override
  int run(ApiClient client, Output output) {
    boolean byIds = ids != null && !ids.isEmpty();
    boolean failedOnly = checkArgs(byIds);
    List<String> retried = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<String> notFound = new ArrayList<>();
    long remaining = 0;
    if (byIds) {
      Ids.Resolved resolved = Ids.resolve(client, ids);
      List<String> targets = resolved.ids();
      notFound.addAll(resolved.notFound());
      for (int from = 0; from < targets.size(); from += batch) {
        ObjectNode body = ApiClient.object();
        ArrayNode array = body.putArray("ids");
        targets.subList(from, Math.min(targets.size(), from + batch)).forEach(array::add);
        JsonNode result = client.post("/v1/messages/retry", body);
        result.path("retried").forEach(n -> retried.add(n.asText()));
        result.path("skipped").forEach(n -> skipped.add(n.asText()));
        result.path("notFound").forEach(n -> notFound.add(n.asText()));
      }
    } else {
      remaining = retryMatching(client, output, failedOnly, retried, skipped);
    }
    report(output, byIds, retried, skipped, notFound, remaining, limit);
    if (!notFound.isEmpty()) {
      return ExitCode.NOT_FOUND.code();
    }
    return skipped.isEmpty() ? 0 : ExitCode.CONFLICT.code();
  }

  /**
   * Retries the matches of {@code --queue} batch by batch: the server filters and pages, the client
   * only loops. Returns how many still match when {@code --limit} stopped it.
   */
  private long retryMatching(
      ApiClient client,
      Output output,
      boolean failedOnly,
      List<String> retried,
      List<String> skipped) {
    if (limit != null && limit < 1) {
      throw CliException.usage("--limit: must be at least 1, was " + limit);
    }
    if (batch < 1 || batch > 1000) {
      throw CliException.usage("--batch: must be between 1 and 1000, was " + batch);
    }
    ObjectNode filter = ApiClient.object();
    if (deadReason != null) {
      filter.putArray("deadReasons").add(deadReason.trim().toUpperCase(Locale.ROOT));
    }
    if (failedOnly) {
      ArrayNode except = filter.putArray("exceptDeadReasons");
      NOT_FAILED.stream().sorted().forEach(except::add);
    }
    if (type != null) {
      filter.put("type", type);
    }
    if (fingerprint != null) {
      filter.put("fingerprint", fingerprint.trim());
    }
    String path = "/v1/queues/" + ApiClient.segment(queue) + "/retry";
    Progress progress = Progress.on(output);
    Long total = null;
    long remaining = 0;
    int done = 0;
    while (limit == null || done < limit) {
      int size = limit == null ? batch : Math.min(batch, limit - done);
      boolean last = limit != null && done + size >= limit;
      boolean count = last || (progress.shown() && total == null);
      JsonNode result =
          client.post(path, filter.deepCopy().put("limit", size).put("countRemaining", count));
      JsonNode batchRetried = result.path("retried");
      batchRetried.forEach(n -> retried.add(n.asText()));
      result.path("skipped").forEach(n -> skipped.add(n.asText()));
      done += batchRetried.size();
      if (count) {
        remaining = result.path("remaining").asLong();
        total = total == null ? done + remaining : total;
      }
      progress.update("retrying " + done + (total == null ? "" : " of " + total));
      if (batchRetried.size() + result.path("skipped").size() < size || batchRetried.isEmpty()) {
        remaining = 0; // every match was seen
        break;
      }
    }
    progress.done();
    return limit != null && done >= limit ? remaining : 0;
  }

  private boolean checkArgs(boolean byIds) {
    if (byIds == (queue != null)) {
      throw CliException.usage("give message ids, or --queue QUEUE with --all-dead or --status");
    }
    if (byIds
        && (allDead
            || status != null
            || type != null
            || deadReason != null
            || fingerprint != null)) {
      throw CliException.usage(
          "--all-dead, --status, --type, --dead-reason and --fingerprint need --queue instead of"
              + " ids");
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
      List<String> notFound,
      long remaining,
      Integer limit) {
    if (output.json()) {
      ObjectNode json = ApiClient.object();
      retried.forEach(json.putArray("retried")::add);
      skipped.forEach(json.putArray("skipped")::add);
      notFound.forEach(json.putArray("notFound")::add);
      if (!byIds) {
        json.put("remaining", remaining);
      }
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
    if (remaining > 0) {
      output.line(Progress.stoppedAtLimit(limit, remaining));
    }
  }
}
