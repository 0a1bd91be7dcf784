package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Progress;
import io.redrive.cli.output.Table;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "redrive",
    mixinStandardHelpOptions = true,
    description = {
      "Moves dead messages out of a dead-letter queue, attempts reset.",
      "They go back to their source queue (or --to), history kept. Try --dry-run first.",
      "Works through every match in batches (--batch) until --limit; the server filters.",
      "Shows progress on a terminal and says how many still match when --limit stops it."
    })
final class QueueRedriveCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "DLQ", description = "The dead-letter queue to empty.")
  String queue;

  @Option(
      names = "--to",
      paramLabel = "QUEUE",
      description = "Target queue (default: each message's source queue).")
  String to;

  @Option(
      names = "--reason",
      paramLabel = "REASON",
      description =
          "Only messages dead for this reason (POISON, HANDLER_EXCEPTION...); repeatable.")
  List<String> reasons;

  @Option(
      names = "--type",
      paramLabel = "TYPE",
      description = "Only messages of this type; repeatable.")
  List<String> types;

  @Option(
      names = "--fingerprint",
      paramLabel = "KEY",
      description =
          "Only messages of this dead-letter group (a key from `message list QUEUE --group`).")
  String fingerprint;

  @Option(
      names = "--dead-since",
      paramLabel = "TIME",
      description = "Only messages dead at or after TIME (an instant, or a duration ago: 2h).")
  String deadSince;

  @Option(
      names = "--dead-before",
      paramLabel = "TIME",
      description = "Only messages dead before TIME (an instant, or a duration ago).")
  String deadBefore;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Most messages to move (default: every match).")
  Integer limit;

  @Option(
      names = "--batch",
      paramLabel = "N",
      defaultValue = "1000",
      description = "Messages per request, 1-100000 (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--dry-run", description = "Report what would move; change nothing.")
  boolean dryRun;

  @Option(
      names = "--position",
      paramLabel = "original|end",
      description =
          "Where messages of a stream go among its waiting messages: original (default: back in"
              + " their original sequence) or end (behind them all).")
  String position;

  /** Most moves listed in the table; beyond it, only the counts (--json lists every move). */
  static final int TABLE_ROWS = 1000;

  @Override
  int run(ApiClient client, Output output) {
    if (limit != null && limit < 1) {
      throw CliException.usage("--limit: must be at least 1, was " + limit);
    }
    if (batch < 1 || batch > 100_000) {
      throw CliException.usage("--batch: must be between 1 and 100000, was " + batch);
    }
    ObjectNode filter = filter();
    String path = "/v1/queues/" + ApiClient.segment(queue) + "/redrive";
    ArrayNode moves = ApiClient.json().createArrayNode();
    ArrayNode streams = ApiClient.json().createArrayNode();
    Set<String> skipped = new LinkedHashSet<>();
    Progress progress = Progress.on(output);
    Long remaining = null;
    Long total = null;
    int done = 0;
    while (limit == null || done < limit) {
      int size = limit == null ? batch : Math.min(batch, limit - done);
      boolean last = dryRun || (limit != null && done + size >= limit);
      boolean countNow = last || (progress.shown() && total == null);
      ObjectNode body = filter.deepCopy().put("limit", size).put("dryRun", dryRun);
      JsonNode result = client.post(path + (countNow ? "?countRemaining=true" : ""), body);
      JsonNode batchMoves = result.path("moves");
      moves.addAll((ArrayNode) batchMoves);
      if (result.path("streams").isArray()) {
        streams.addAll((ArrayNode) result.path("streams"));
      }
      result.path("skipped").forEach(n -> skipped.add(n.asText()));
      done += batchMoves.size();
      if (countNow) {
        remaining = result.path("remaining").asLong();
        total = total == null ? done + remaining : total;
      }
      progress.update(
          (dryRun ? "counting " : "redriving ") + done + (total == null ? "" : " of " + total));
      boolean exhausted = batchMoves.size() + result.path("skipped").size() < size;
      if (last || batchMoves.isEmpty() || exhausted) {
        if (exhausted || batchMoves.isEmpty()) {
          remaining = dryRun ? remaining : Long.valueOf(0);
        }
        break;
      }
    }
    progress.done();
    if (dryRun) {
      // a dry run counts every match but lists only the first batch
      done =
          (int)
              Math.min(
                  remaining == null ? moves.size() : remaining,
                  limit == null ? Long.MAX_VALUE : limit);
      remaining = remaining == null ? 0 : Math.max(0, remaining - done);
    }
    if (output.json()) {
      ObjectNode json = ApiClient.object();
      json.set("moves", moves);
      skipped.forEach(json.putArray("skipped")::add);
      json.set("streams", streams);
      json.put("dryRun", dryRun)
          .put("count", done)
          .put("remaining", remaining == null ? 0 : remaining);
      output.print(json);
      return 0;
    }
    report(output, moves, done, skipped, remaining == null ? 0 : remaining);
    StreamOrders.print(output, streams, dryRun);
    return 0;
  }

  private ObjectNode filter() {
    ObjectNode body = ApiClient.object();
    if (to != null) {
      body.put("to", to);
    }
    if (reasons != null) {
      var array = body.putArray("deadReasons");
      reasons.forEach(r -> array.add(r.trim().toUpperCase(Locale.ROOT)));
    }
    if (types != null) {
      var array = body.putArray("types");
      types.forEach(array::add);
    }
    if (deadSince != null) {
      body.put("deadSince", Times.instant("--dead-since", deadSince));
    }
    if (deadBefore != null) {
      body.put("deadBefore", Times.instant("--dead-before", deadBefore));
    }
    if (fingerprint != null) {
      body.put("fingerprint", fingerprint.trim());
    }
    if (position != null) {
      String p = position.trim().toLowerCase(Locale.ROOT);
      if (!p.equals("original") && !p.equals("end")) {
        throw CliException.usage("--position: expected original or end, was \"" + position + "\"");
      }
      body.put("position", p);
    }
    return body;
  }

  private void report(
      Output output, ArrayNode moves, int count, Set<String> skipped, long remaining) {
    if (count == 0) {
      output.line("nothing to redrive from " + queue + (dryRun ? " (dry run)" : ""));
    } else {
      output.line(
          (dryRun ? "would redrive " : "redrove ")
              + count
              + (count == 1 ? " message" : " messages")
              + " from "
              + queue
              + (dryRun ? " (dry run: nothing changed)" : ""));
      if (moves.size() <= TABLE_ROWS) {
        Table table = Table.of("DEAD-LETTER ID", "TO QUEUE", "NEW ID");
        for (JsonNode move : moves) {
          table.row(
              Fields.text(move, "deadLetterId"),
              Fields.text(move, "toQueue"),
              Fields.text(move, "newId", dryRun ? "" : null));
        }
        output.table(table);
        if (dryRun && moves.size() < count) {
          output.line("(the first " + moves.size() + " listed)");
        }
      } else {
        output.line("(" + moves.size() + " moves: too many to list; --json lists them)");
      }
    }
    if (remaining > 0) {
      output.line(Progress.stoppedAtLimit(limit, remaining));
    }
    if (!skipped.isEmpty()) {
      output.line(
          "skipped "
              + skipped.size()
              + " with no known source queue (give --to QUEUE): "
              + String.join(" ", skipped));
    }
  }
}
