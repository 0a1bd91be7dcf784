package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code redrive message retry-now ID...}: scheduled messages become visible at once. */
@Command(
    name = "retry-now",
    mixinStandardHelpOptions = true,
    description = {
      "Makes SCHEDULED messages visible at once, attempts kept, with a RETRIED_NOW",
      "history entry: messages waiting for an automatic retry, or enqueued with a delay.",
      "Ready, leased and dead messages are skipped (retry dead ones with message retry).",
      "Exit 0 when every message was retried, 3 when some were not found, 4 when some",
      "were skipped."
    })
final class MessageRetryNowCommand extends ApiCommand {
  @Parameters(arity = "1..*", paramLabel = "ID", description = "Message ids or unique id prefixes.")
  List<String> ids;

  @Override
  int run(ApiClient client, Output output) {
    Ids.Resolved resolved = Ids.resolve(client, ids);
    List<String> retried = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<String> notFound = new ArrayList<>(resolved.notFound());
    if (!resolved.ids().isEmpty()) {
      ObjectNode body = ApiClient.object();
      ArrayNode array = body.putArray("ids");
      resolved.ids().forEach(array::add);
      JsonNode result = client.post("/v1/messages/retry-now", body);
      result.path("retried").forEach(n -> retried.add(n.asText()));
      result.path("skipped").forEach(n -> skipped.add(n.asText()));
      result.path("notFound").forEach(n -> notFound.add(n.asText()));
    }
    if (output.json()) {
      ObjectNode json = ApiClient.object();
      retried.forEach(json.putArray("retried")::add);
      skipped.forEach(json.putArray("skipped")::add);
      notFound.forEach(json.putArray("notFound")::add);
      output.print(json);
    } else {
      output.line(
          "retried now "
              + retried.size()
              + ", skipped "
              + skipped.size()
              + " (not scheduled), not found "
              + notFound.size());
      retried.forEach(id -> output.line("  retried    " + id));
      skipped.forEach(id -> output.line("  skipped    " + id + " (not scheduled)"));
      notFound.forEach(id -> output.line("  not found  " + id));
    }
    if (!notFound.isEmpty()) {
      return ExitCode.NOT_FOUND.code();
    }
    return skipped.isEmpty() ? 0 : ExitCode.CONFLICT.code();
  }
}
