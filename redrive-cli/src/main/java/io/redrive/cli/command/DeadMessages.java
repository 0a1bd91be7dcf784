package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Pages through a queue's dead messages to select some by filter. */
final class DeadMessages {
  private static final int PAGE = 500;

  private DeadMessages() {}

  /** Ids of up to {@code limit} dead messages of {@code queue} that {@code keep} accepts. */
  static List<String> ids(
      ApiClient client,
      String queue,
      String type,
      String deadReason,
      int limit,
      Predicate<JsonNode> keep) {
    List<String> ids = new ArrayList<>();
    String after = null;
    String path = "/v1/queues/" + ApiClient.segment(queue) + "/messages";
    do {
      JsonNode page =
          client.get(
              path,
              ApiClient.Query.of()
                  .add("state", "dead")
                  .add("type", type)
                  .add("deadReason", deadReason)
                  .add("after", after)
                  .add("limit", PAGE));
      for (JsonNode m : page.path("messages")) {
        if (ids.size() >= limit) {
          return ids;
        }
        if (keep.test(m)) {
          ids.add(Fields.text(m, "id"));
        }
      }
      after = Fields.text(page, "next");
    } while (after != null);
    return ids;
  }
}
