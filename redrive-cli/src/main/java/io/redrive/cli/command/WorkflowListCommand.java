package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "Lists instances, newest first, one page at a time (the next page's --after is printed",
      "to standard error). --group sorts failed instances into groups by fingerprint",
      "(reason, name@version, where it failed), ready for a retry of each group after a fix."
    })
final class WorkflowListCommand extends ApiCommand {
  @Option(
      names = "--status",
      paramLabel = "S",
      split = ",",
      description = "pending, running, completed, failed or terminated; repeatable.")
  List<String> statuses;

  @Option(names = "--name", paramLabel = "N", description = "Only this orchestration.")
  String name;

  @Option(names = "--version", paramLabel = "V", description = "Only instances pinned to V.")
  String version;

  @Option(
      names = "--reason",
      paramLabel = "R",
      description = "Only instances whose failure has this reason (POISON, NONDETERMINISM...).")
  String reason;

  @Option(names = "--parent", paramLabel = "ID", description = "Only the children of ID.")
  String parent;

  @Option(names = "--roots", description = "Only instances without a parent.")
  boolean roots;

  @Option(names = "--since", paramLabel = "T", description = "Started at or after T (ISO-8601).")
  String since;

  @Option(names = "--before", paramLabel = "T", description = "Started before T (ISO-8601).")
  String before;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "100",
      description = "Page size, 1-1000 (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "--after", paramLabel = "CURSOR", description = "Start after this cursor.")
  String after;

  @Option(
      names = "--group",
      description =
          "Group failed instances (every page) by failure fingerprint; implies --status failed.")
  boolean group;

  @Option(
      names = {"-q", "--quiet"},
      description = "Print only the ids, one per line.")
  boolean quiet;

  @Override
  int run(ApiClient client, Output output) {
    if (quiet && output.json()) {
      throw CliException.usage("give --quiet or --json, not both");
    }
    if (group) {
      return group(client, output);
    }
    JsonNode page = client.get("/v1/workflows", query(after, statuses));
    List<JsonNode> instances = matching(page.path("instances"));
    if (output.json()) {
      var out = ApiClient.object();
      out.set("instances", ApiClient.json().valueToTree(instances));
      out.set("next", page.get("next"));
      output.print(out);
      return 0;
    }
    if (quiet) {
      instances.forEach(i -> output.line(Fields.text(i, "id")));
    } else if (instances.isEmpty()) {
      output.line("no instances");
    } else {
      output.table(table(ApiClient.json().valueToTree(instances)));
    }
    String next = Fields.text(page, "next");
    if (next != null) {
      output.note("more: add --after " + next);
    }
    return 0;
  }

  private ApiClient.Query query(String cursor, List<String> status) {
    ApiClient.Query q = ApiClient.Query.of();
    if (status != null) {
      status.forEach(s -> q.add("status", s.trim().toLowerCase(Locale.ROOT)));
    }
    return q.add("name", name)
        .add("version", version)
        .add("parent", parent)
        .add("roots", roots ? "true" : null)
        .add("since", since)
        .add("before", before)
        .add("after", cursor)
        .add("limit", limit);
  }

  /** The reason filter is applied here: the server lists by status, name and tree. */
  private List<JsonNode> matching(JsonNode instances) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode i : instances) {
      if (reason == null || reason.equalsIgnoreCase(Fields.text(i.path("failure"), "reason", ""))) {
        out.add(i);
      }
    }
    return out;
  }

  private int group(ApiClient client, Output output) {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    Map<String, JsonNode> samples = new LinkedHashMap<>();
    String cursor = after;
    do {
      JsonNode page = client.get("/v1/workflows", query(cursor, List.of("failed")));
      for (JsonNode i : matching(page.path("instances"))) {
        String key = fingerprint(i);
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(Fields.text(i, "id"));
        samples.putIfAbsent(key, i);
      }
      cursor = Fields.text(page, "next");
    } while (cursor != null);
    if (output.json()) {
      var arr = ApiClient.json().createArrayNode();
      groups.forEach(
          (key, ids) -> {
            var g = arr.addObject();
            g.put("fingerprint", key);
            g.put("count", ids.size());
            g.put("sample", WorkflowView.failure(samples.get(key).get("failure")));
            ids.forEach(g.putArray("ids")::add);
          });
      var out = ApiClient.object();
      out.set("groups", arr);
      output.print(out);
      return 0;
    }
    if (groups.isEmpty()) {
      output.line("no failed instances");
      return 0;
    }
    Table t =
        Table.of("COUNT", "FINGERPRINT", "SAMPLE FAILURE", "IDS").alignRight(0).maxWidth(2, 70);
    groups.forEach(
        (key, ids) ->
            t.row(
                ids.size(),
                key,
                WorkflowView.failure(samples.get(key).get("failure")),
                ids.size() <= 3
                    ? String.join(" ", ids)
                    : String.join(" ", ids.subList(0, 3)) + " ..."));
    output.table(t);
    return 0;
  }

  /**
   * What makes two failures "the same bug": the reason, the orchestration and version, and where it
   * failed (the activity, or the poisoned target), not the instance-specific message.
   */
  static String fingerprint(JsonNode i) {
    JsonNode f = i.path("failure");
    StringBuilder sb = new StringBuilder(Fields.text(f, "reason", "?"));
    sb.append(' ')
        .append(Fields.text(i, "name", "?"))
        .append('@')
        .append(Fields.text(i, "version", "?"));
    if (f.hasNonNull("activityName")) {
      sb.append(" activity ").append(Fields.text(f, "activityName"));
    } else if (f.hasNonNull("target")) {
      sb.append(' ').append(Fields.text(f, "target").toLowerCase(Locale.ROOT));
    }
    JsonNode last = f.path("lastAttempt");
    if (last.hasNonNull("reason")) {
      sb.append(" last ").append(Fields.text(last, "reason"));
    }
    return sb.toString();
  }

  static Table table(JsonNode instances) {
    Table t =
        Table.of("ID", "NAME", "VERSION", "STATUS", "CREATED", "UPDATED", "FAILURE")
            .maxWidth(6, 70);
    for (JsonNode i : instances) {
      JsonNode f = i.get("failure");
      t.row(
          Fields.text(i, "id"),
          Fields.text(i, "name"),
          Fields.text(i, "version", "-"),
          Fields.text(i, "status"),
          Fields.time(i, "createdAt"),
          Fields.time(i, "updatedAt"),
          f == null || f.isNull() ? "" : WorkflowView.failure(f));
    }
    return t;
  }
}
