package io.redrive.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = {
      "Imports messages into a queue, keyed by sourceId.",
      "Importing the same sourceId again is a no-op (reported as a duplicate). FILE is a JSON array, {\"messages\": [...]}, or JSON",
      "Lines (one message per line); - reads standard input. Each message has sourceId, type and",
      "optionally sourceQueue, payload, headers, stream, priority, limitKey, dead. Messages as printed by",
      "`redrive message list --json` work too: their id and queue become sourceId and",
      "sourceQueue, and DEAD ones are imported dead."
    })
public final class ImportCommand extends ApiCommand {
  private static final int BATCH = 1000;

  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Parameters(index = "1", paramLabel = "FILE")
  String file;

  @Option(
      names = "--dead",
      description = "Import every message as DEAD (e.g. restoring a dead-letter queue).")
  boolean dead;

  @Override
  int run(ApiClient client, Output output) {
    String text = file.equals("-") ? Inputs.stdin("FILE") : Inputs.file("FILE", Path.of(file));
    List<ObjectNode> messages = new ArrayList<>();
    int n = 0;
    for (JsonNode source : parse(text)) {
      n++;
      messages.add(message(source, n));
    }
    if (messages.isEmpty()) {
      throw CliException.usage("FILE: no messages in " + file);
    }
    ArrayNode imported = ApiClient.json().createArrayNode();
    ArrayNode duplicates = ApiClient.json().createArrayNode();
    for (int from = 0; from < messages.size(); from += BATCH) {
      ObjectNode body = ApiClient.object();
      body.putArray("messages")
          .addAll(messages.subList(from, Math.min(messages.size(), from + BATCH)));
      JsonNode result = client.post("/v1/queues/" + ApiClient.segment(queue) + "/import", body);
      imported.addAll((ArrayNode) result.path("imported").deepCopy());
      duplicates.addAll((ArrayNode) result.path("duplicates").deepCopy());
    }
    if (output.json()) {
      ObjectNode json = ApiClient.object();
      json.set("imported", imported);
      json.set("duplicates", duplicates);
      output.print(json);
    } else {
      output.line(
          "imported "
              + imported.size()
              + " into "
              + queue
              + ", duplicates "
              + duplicates.size()
              + " (source ids already there)");
    }
    return 0;
  }

  private ObjectNode message(JsonNode source, int n) {
    if (!source.isObject()) {
      throw CliException.usage("FILE: message " + n + " is not a JSON object");
    }
    String sourceId = text(source, "sourceId", text(source, "id", null));
    String type = text(source, "type", null);
    if (sourceId == null || type == null) {
      throw CliException.usage("FILE: message " + n + " needs a sourceId (or id) and a type");
    }
    ObjectNode m = ApiClient.object().put("sourceId", sourceId);
    String sourceQueue = text(source, "sourceQueue", text(source, "queue", null));
    if (sourceQueue != null) {
      m.put("sourceQueue", sourceQueue);
    }
    m.put("type", type);
    if (source.has("payload")) {
      m.set("payload", source.get("payload"));
    }
    if (source.hasNonNull("headers")) {
      m.set("headers", source.get("headers"));
    }
    if (source.hasNonNull("stream")) {
      m.put("stream", source.get("stream").asText());
    }
    if (source.hasNonNull("priority")) {
      m.set("priority", source.get("priority"));
    }
    if (source.hasNonNull("limitKey")) {
      m.put("limitKey", source.get("limitKey").asText());
    }
    boolean isDead =
        dead || source.path("dead").asBoolean(false) || "DEAD".equals(text(source, "state", ""));
    m.put("dead", isDead);
    return m;
  }

  private static String text(JsonNode node, String field, String fallback) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? fallback : v.asText();
  }

  private static List<JsonNode> parse(String text) {
    String trimmed = text.strip();
    List<JsonNode> result = new ArrayList<>();
    if (trimmed.startsWith("[") || (trimmed.startsWith("{") && isWholeDocument(trimmed))) {
      JsonNode doc = read(trimmed, "FILE");
      JsonNode list = doc.isArray() ? doc : doc.get("messages");
      if (list != null && list.isArray()) {
        list.forEach(result::add);
        return result;
      }
      if (doc.isObject()) {
        result.add(doc);
        return result;
      }
    }
    int line = 0;
    for (String l : trimmed.split("\\R")) {
      line++;
      if (!l.isBlank()) {
        result.add(read(l, "FILE line " + line));
      }
    }
    return result;
  }

  private static boolean isWholeDocument(String text) {
    try {
      ApiClient.json().readTree(text);
      return true;
    } catch (JsonProcessingException e) {
      return false;
    }
  }

  private static JsonNode read(String text, String where) {
    try {
      return ApiClient.json().readTree(text);
    } catch (JsonProcessingException e) {
      throw CliException.usage(where + ": not JSON (" + e.getOriginalMessage() + ")");
    }
  }
}
