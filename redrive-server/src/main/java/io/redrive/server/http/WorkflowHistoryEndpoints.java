package io.redrive.server.http;

import static io.javalin.http.HandlerType.GET;
import static io.redrive.server.http.WorkflowQueryValues.bool;
import static io.redrive.server.http.WorkflowQueryValues.cursor;
import static io.redrive.server.http.WorkflowQueryValues.limit;

import io.redrive.server.auth.Permission;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstancePage;
import io.redrive.workflow.InstanceQuery;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * What a workflow instance did and started (docs/api.md, "Workflows"): its history, its timeline
 * and its children; children outside the key's workflows scope are left out.
 */
final class WorkflowHistoryEndpoints {
  /** Most events one history page holds. */
  static final int MAX_EVENTS = 1000;

  private final WorkflowClient client;
  private final VisibleInstances instances;

  WorkflowHistoryEndpoints(WorkflowClient client) {
    this.client = client;
    this.instances = new VisibleInstances(client);
  }

  List<Route> routes() {
    return List.of(
        Route.of(
                GET,
                "/v1/workflows/{id}/history",
                "An instance's history events, oldest first, paged",
                Permission.VIEW,
                null,
                200,
                WorkflowResponses.EventPage.class,
                this::history)
            .withQueryParams("execution", "turns", "after", "limit"),
        Route.of(
            GET,
            "/v1/workflows/{id}/timeline",
            "History interleaved with every uncommitted turn try and every activity delivery",
            Permission.VIEW,
            null,
            200,
            WorkflowResponses.Timeline.class,
            this::timeline),
        Route.of(
            GET,
            "/v1/workflows/{id}/children",
            "An instance's direct child instances",
            Permission.VIEW,
            null,
            200,
            WorkflowResponses.ChildList.class,
            this::children));
  }

  private void history(Exchange ex) {
    String id = VisibleInstances.id(ex);
    InstanceInfo row = instances.find(ex, id);
    String execution = ex.query("execution");
    Integer executionId;
    if (execution == null) {
      executionId = row.executionId();
    } else if (execution.equals("all")) {
      executionId = null;
    } else {
      executionId = (int) limit("execution", execution, 1, Integer.MAX_VALUE);
    }
    boolean turns = bool("turns", ex.query("turns"));
    int limit = limit(ex.query("limit"), MAX_EVENTS, MAX_EVENTS);
    long after = ex.query("after") == null ? 0 : cursor(ex.query("after"));
    List<WorkflowResponses.Event> events = new ArrayList<>();
    String next = null;
    long position = 0;
    for (WorkflowEvent e : client.history(id, executionId)) {
      position++;
      if (position <= after || (!turns && "TURN_STARTED".equals(e.kind()))) {
        continue;
      }
      if (events.size() == limit) {
        next = Long.toString(position - 1);
        break;
      }
      events.add(WorkflowViews.event(e));
    }
    ex.reply(new WorkflowResponses.EventPage(events, next));
  }

  private void timeline(Exchange ex) {
    String id = VisibleInstances.id(ex);
    instances.find(ex, id);
    ex.reply(
        new WorkflowResponses.Timeline(
            client.timeline(id).stream().map(WorkflowViews::entry).toList()));
  }

  private void children(Exchange ex) {
    String id = VisibleInstances.id(ex);
    instances.find(ex, id);
    List<WorkflowResponses.InstanceSummary> out = new ArrayList<>();
    String cursor = null;
    do {
      InstancePage page = client.list(InstanceQuery.all(1000).withParentId(id).withCursor(cursor));
      for (InstanceInfo r : page.instances()) {
        if (ex.mayAccessWorkflow(r.name())) {
          out.add(WorkflowViews.summary(r));
        }
      }
      cursor = page.nextCursor();
    } while (cursor != null);
    ex.reply(new WorkflowResponses.ChildList(out));
  }
}
