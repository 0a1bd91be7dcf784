package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstancePage;
import io.redrive.workflow.InstanceQuery;
import io.redrive.workflow.InstanceReader;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.WorkflowEvent;
import io.redrive.workflow.WorkflowFailure;
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
  public InstancePage list(InstanceQuery p) {
    ApiClient.Query q = ApiClient.Query.of();
    p.statuses().forEach(s -> q.add("status", s.name().toLowerCase(Locale.ROOT)));
    q.add("name", p.name())
        .add("root", p.rootId())
        .add("after", p.cursor())
        .add("limit", p.limit());
    JsonNode page = client.get("/v1/workflows", q);
    List<InstanceInfo> instances = new ArrayList<>();
    for (JsonNode i : page.path("instances")) {
      instances.add(instance(i));
    }
    return new InstancePage(instances, Fields.text(page, "next"));
  }

  /** An instance of a list page: a summary, so input, output and history sizes are not there. */
  private static InstanceInfo instance(JsonNode i) {
    JsonNode failure = i.get("failure");
    return new InstanceInfo(
        Fields.text(i, "id"),
        Fields.text(i, "name"),
        Fields.text(i, "version"),
        Fields.text(i, "requestedVersion"),
        InstanceStatus.valueOf(Fields.text(i, "status")),
        i.path("execution").asInt(),
        null,
        null,
        failure == null || failure.isNull() ? null : WorkflowFailure.fromJson(failure.toString()),
        null,
        Fields.text(i, "parent"),
        Fields.text(i, "root"),
        instant(i, "createdAt"),
        instant(i, "updatedAt"),
        instant(i, "completedAt"),
        i.path("turnAttempt").asInt(),
        0,
        0);
  }

  @Override
  public List<WorkflowEvent> history(String instanceId, Integer executionId) {
    String path = "/v1/workflows/" + ApiClient.segment(instanceId) + "/history";
    List<WorkflowEvent> events = new ArrayList<>();
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
        events.add(
            new WorkflowEvent(
                e.path("eventId").asInt(),
                e.path("execution").asInt(),
                Fields.text(e, "kind"),
                e.hasNonNull("seq") ? e.get("seq").asLong() : null,
                Fields.text(e, "name"),
                data == null || data.isNull() ? null : data.toString(),
                e.path("turn").asInt(),
                instant(e, "at")));
      }
      after = Fields.text(page, "next");
    } while (after != null);
    return events;
  }

  private static Instant instant(JsonNode n, String field) {
    String text = Fields.text(n, field);
    return text == null ? null : Instant.parse(text);
  }
}
