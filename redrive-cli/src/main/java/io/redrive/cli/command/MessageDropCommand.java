package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "drop",
    mixinStandardHelpOptions = true,
    description = {
      "Deletes messages for good, by id or by filter.",
      "By id: any state; ids may be unique prefixes. By filter in --queue: never leased ones,",
      "and it needs --yes. Exit 3 when some ids were not found."
    })
final class MessageDropCommand extends ApiCommand {
  @Parameters(arity = "0..*", paramLabel = "ID", description = "Message ids or unique id prefixes.")
  List<String> ids;

  @Option(names = "--queue", paramLabel = "QUEUE", description = "Drop by filter in this queue.")
  String queue;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      split = ",",
      description = "With --queue: ready, scheduled or dead (default: all three); repeatable.")
  List<String> states;

  @Option(names = "--type", paramLabel = "TYPE", description = "With --queue: only this type.")
  String type;

  @Option(
      names = "--dead-reason",
      paramLabel = "REASON",
      description = "With --queue: only dead messages that died for this reason.")
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
      defaultValue = "1000",
      description = "With --queue: most messages to drop (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "--yes", description = "Confirm a drop by filter.")
  boolean yes;

  @Override
  int run(ApiClient client, Output output) {
    boolean byIds = ids != null && !ids.isEmpty();
    if (byIds == (queue != null)) {
      throw CliException.usage("give message ids, or --queue QUEUE with filters");
    }
    JsonNode result;
    List<String> notFound = new ArrayList<>();
    if (byIds) {
      if (states != null || type != null || deadReason != null || fingerprint != null) {
        throw CliException.usage(
            "--state, --type, --dead-reason and --fingerprint need --queue instead of ids");
      }
      Ids.Resolved resolved = Ids.resolve(client, ids);
      notFound.addAll(resolved.notFound());
      if (resolved.ids().isEmpty()) {
        result = ApiClient.object();
      } else {
        ObjectNode body = ApiClient.object();
        resolved.ids().forEach(body.putArray("ids")::add);
        result = client.post("/v1/messages/drop", body);
      }
    } else {
      if (!yes) {
        throw CliException.usage(
            "dropping by filter deletes messages for good: add --yes (see `redrive message list "
                + queue
                + "` first)");
      }
      ObjectNode body = ApiClient.object();
      if (states != null) {
        ArrayNode array = body.putArray("states");
        states.forEach(s -> array.add(s.trim().toUpperCase(Locale.ROOT)));
      }
      if (type != null) {
        body.put("type", type);
      }
      if (deadReason != null) {
        body.put("deadReason", deadReason.trim().toUpperCase(Locale.ROOT));
      }
      if (fingerprint != null) {
        body.put("fingerprint", fingerprint.trim());
      }
      body.put("limit", limit);
      result = client.post("/v1/queues/" + ApiClient.segment(queue) + "/drop", body);
    }
    List<String> dropped = new ArrayList<>();
    result.path("dropped").forEach(n -> dropped.add(n.asText()));
    result.path("notFound").forEach(n -> notFound.add(n.asText()));
    if (output.json()) {
      ObjectNode json = ApiClient.object();
      dropped.forEach(json.putArray("dropped")::add);
      notFound.forEach(json.putArray("notFound")::add);
      output.print(json);
    } else {
      output.line("dropped " + dropped.size() + ", not found " + notFound.size());
      if (byIds) {
        dropped.forEach(id -> output.line("  dropped    " + id));
      }
      notFound.forEach(id -> output.line("  not found  " + id));
    }
    return notFound.isEmpty() ? 0 : ExitCode.NOT_FOUND.code();
  }
}
