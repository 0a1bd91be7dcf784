package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.store.HistoryRow;
import io.redrive.store.InstancePage;
import io.redrive.store.InstanceRow;
import io.redrive.store.ListInstancesParams;
import io.redrive.workflow.InstanceReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads instances and histories from a server's HTTP API, for {@code workflow replay-check}. */
final class ApiInstanceReader implements InstanceReader {
  private final ApiClient client;

  ApiInstanceReader(ApiClient client) {
    this.client = client;
  }

  @Override
  public InstancePage list(ListInstancesParams p) {
    ApiClient.Query q = ApiClient.Query.of();
    p.statuses().forEach(s -> q.add("status", s.name().toLowerCase(Locale.ROOT)));
    q.add("name", p.name())
        .add("root", p.rootId())
        .add("after", p.cursor())
        .add("limit", p.limit());
    JsonNode page = client.get("/v1/workflows", q);
    List<InstanceRow> rows = new ArrayList<>();
    for (JsonNode i : page.path("instances")) {
      rows.add(row(i));
    }
    return new InstancePage(rows, Fields.text(page, "next"));
  }

  private static InstanceRow row(JsonNode i) {
    JsonNode failure = i.get("failure");
    return new InstanceRow(
        Fields.text(i, "id"),
        Fields.text(i, "name"),
        Fields.text(i, "version"),
        Fields.text(i, "requestedVersion"),
        InstanceRow.Status.valueOf(Fields.text(i, "status")),
        i.path("execution").asInt(),
        Fields.text(i, "parent"),
        Fields.text(i, "root"),
        null,
        null,
        failure == null || failure.isNull() ? null : failure.toString(),
        null,
        instant(i, "createdAt"),
        instant(i, "updatedAt"),
        instant(i, "completedAt"),
        null,
        i.path("turnAttempt").asInt(),
        null,
        null,
        0,
        0,
        null,
        null);
  }

  @Override
  public List<HistoryRow> history(String instanceId, Integer executionId) {
    String path = "/v1/workflows/" + ApiClient.segment(instanceId) + "/history";
    List<HistoryRow> rows = new ArrayList<>();
    String after = null;
    do {
      JsonNode page =
          client.get(
              path,
              ApiClient.Query.of()
                  .add("execution", executionId == null ? "all" : executionId.toString())
                  .add("turns", "true")
                  .add("after", after));
      for (JsonNode e : page.path("events")) {
        JsonNode data = e.get("data");
        rows.add(
            new HistoryRow(
                e.path("execution").asInt(),
                e.path("eventId").asInt(),
                Fields.text(e, "kind"),
                e.hasNonNull("seq") ? e.get("seq").asLong() : null,
                Fields.text(e, "name"),
                data == null || data.isNull() ? null : data.toString(),
                e.path("turn").asInt(),
                instant(e, "at")));
      }
      after = Fields.text(page, "next");
    } while (after != null);
    return rows;
  }

  private static Instant instant(JsonNode n, String field) {
    String text = Fields.text(n, field);
    return text == null ? null : Instant.parse(text);
  }
}
