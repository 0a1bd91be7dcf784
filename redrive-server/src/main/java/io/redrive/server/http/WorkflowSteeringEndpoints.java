package io.redrive.server.http;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.POST;
import static io.redrive.server.http.WorkflowQueryValues.bool;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.error.ConflictException;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.WorkflowTrees;
import io.redrive.workflow.DeleteResult;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.WorkflowClient;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Steering a workflow instance (docs/api.md, "Workflows"): raise an event, terminate, retry and
 * delete. Deleting a root deletes its whole tree, so the key must see every instance of it.
 */
final class WorkflowSteeringEndpoints {
  private final WorkflowClient client;
  private final VisibleInstances instances;

  WorkflowSteeringEndpoints(WorkflowClient client) {
    this.client = client;
    this.instances = new VisibleInstances(client);
  }

  /** {@code POST /v1/workflows/{id}/events}. */
  record WorkflowEventBody(
      @ApiField(required = true, maxLength = 200) String name,
      @ApiField(nullable = true) RawJson payload,
      @ApiField(maxLength = 200) String dedupeKey) {}

  /** {@code POST /v1/workflows/{id}/terminate}. */
  record WorkflowTerminateBody(@ApiField(maxLength = 1000) String reason) {}

  /** {@code POST /v1/workflows/{id}/retry}. */
  record WorkflowRetryBody(@ApiField(maxLength = 1000) String note) {}

  List<Route> routes() {
    return List.of(
        Route.of(
            POST,
            "/v1/workflows/{id}/events",
            "Raise an event for an instance (buffered until it waits for it)",
            Permission.PRODUCE,
            WorkflowEventBody.class,
            200,
            WorkflowResponses.Raised.class,
            this::raise),
        Route.of(
                POST,
                "/v1/workflows/{id}/terminate",
                "Ask an instance (and its children) to end as TERMINATED at its next turn",
                Permission.ADMIN,
                WorkflowTerminateBody.class,
                200,
                WorkflowResponses.Instance.class,
                this::terminate)
            .optionalBody(),
        Route.of(
                POST,
                "/v1/workflows/{id}/retry",
                "Bring back an instance that failed by a system failure (poison, nondeterminism)",
                Permission.ADMIN,
                WorkflowRetryBody.class,
                200,
                WorkflowResponses.Instance.class,
                this::retry)
            .optionalBody(),
        Route.of(
                DELETE,
                "/v1/workflows/{id}",
                "Delete a root instance with its whole tree",
                Permission.ADMIN,
                null,
                200,
                WorkflowResponses.Deleted.class,
                this::delete)
            .withQueryParams("force"));
  }

  private void raise(Exchange ex) throws Exception {
    String id = VisibleInstances.id(ex);
    WorkflowEventBody body = ex.body(WorkflowEventBody.class);
    if (body.name() == null || body.name().isBlank()) {
      throw new IllegalArgumentException("name: is required");
    }
    maxLength("name", body.name(), 200);
    maxLength("dedupeKey", body.dedupeKey(), 200);
    instances.find(ex, id);
    String payload = RawJson.textOrNull(body.payload());
    boolean raised =
        client.raiseEvent(
            id,
            body.name(),
            payload == null
                ? null
                : ex.json().read(payload.getBytes(StandardCharsets.UTF_8), JsonNode.class),
            body.dedupeKey());
    ex.reply(new WorkflowResponses.Raised(!raised));
  }

  private void terminate(Exchange ex) throws Exception {
    String id = VisibleInstances.id(ex);
    WorkflowTerminateBody body = ex.body(WorkflowTerminateBody.class);
    maxLength("reason", body == null ? null : body.reason(), 1000);
    if (instances.find(ex, id).status().terminal()) {
      throw new ConflictException(
          "INSTANCE_NOT_RUNNING",
          "workflow instance \"" + id + "\" has ended; nothing to terminate");
    }
    client.terminate(id, body == null ? null : body.reason());
    ex.reply(WorkflowViews.instance(instances.inspect(ex, id), null));
  }

  private void retry(Exchange ex) throws Exception {
    String id = VisibleInstances.id(ex);
    WorkflowRetryBody body = ex.body(WorkflowRetryBody.class);
    maxLength("note", body == null ? null : body.note(), 1000);
    instances.find(ex, id);
    client.retry(id, body == null ? null : body.note());
    ex.reply(WorkflowViews.instance(instances.inspect(ex, id), null));
  }

  private void delete(Exchange ex) {
    String id = VisibleInstances.id(ex);
    InstanceInfo row = instances.find(ex, id);
    if (row.parentId() == null) {
      // a whole tree goes: the key must see every instance of it
      checkTreeInScope(ex, id);
    }
    DeleteResult r = client.delete(id, bool("force", ex.query("force")));
    ex.reply(new WorkflowResponses.Deleted(r.instances(), r.messages()));
  }

  private void checkTreeInScope(Exchange ex, String rootId) {
    WorkflowTrees.requireInScope(client, rootId, ex::mayAccessWorkflow);
  }

  /** The documented bound of a text field, enforced: the document and the server agree. */
  private static void maxLength(String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw new IllegalArgumentException(
          field + ": at most " + max + " characters, was " + value.length());
    }
  }
}
