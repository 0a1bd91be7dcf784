package io.redrive.server.http;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.PATCH;
import static io.javalin.http.HandlerType.POST;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.Redrive;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueNames;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.RequestBodies.CreateQueueBody;
import io.redrive.server.http.RequestBodies.UpdateQueueBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Queue administration: list, create, get, update, delete, pause, resume, stats. */
final class QueueEndpoints {
  private final Redrive redrive;
  private final Views views;

  QueueEndpoints(Redrive redrive, Views views) {
    this.redrive = redrive;
    this.views = views;
  }

  List<Route> routes() {
    return List.of(
        Route.of(
            GET,
            "/v1/queues",
            "List the queues the key may view",
            Permission.VIEW,
            null,
            200,
            "QueueList",
            this::list),
        Route.of(
            POST,
            "/v1/queues",
            "Create a queue",
            Permission.ADMIN,
            CreateQueueBody.class,
            201,
            "Queue",
            this::create),
        Route.of(
            GET,
            "/v1/queues/{name}",
            "Get a queue with its stats",
            Permission.VIEW,
            null,
            200,
            "QueueWithStats",
            this::get),
        Route.of(
            PATCH,
            "/v1/queues/{name}",
            "Change a queue's policy (merge)",
            Permission.ADMIN,
            UpdateQueueBody.class,
            200,
            "Queue",
            this::update),
        Route.of(
            DELETE,
            "/v1/queues/{name}",
            "Delete a queue and its messages",
            Permission.ADMIN,
            null,
            204,
            null,
            this::delete),
        Route.of(
            POST,
            "/v1/queues/{name}/pause",
            "Pause leasing from a queue",
            Permission.ADMIN,
            null,
            200,
            "Queue",
            ex -> ex.reply(views.queue(redrive.pauseQueue(ex.path("name"))))),
        Route.of(
            POST,
            "/v1/queues/{name}/resume",
            "Resume leasing from a queue",
            Permission.ADMIN,
            null,
            200,
            "Queue",
            ex -> ex.reply(views.queue(redrive.resumeQueue(ex.path("name"))))),
        Route.of(
            GET,
            "/v1/queues/{name}/stats",
            "Counts, attempts and reasons of a queue",
            Permission.VIEW,
            null,
            200,
            "Stats",
            this::stats));
  }

  private void list(Exchange ex) {
    List<Object> queues = new ArrayList<>();
    for (Queue q : redrive.listQueues()) {
      if (ex.mayAccess(Permission.VIEW, q.name())) {
        queues.add(views.queue(q));
      }
    }
    ex.reply(Exchange.single("queues", queues));
  }

  private void create(Exchange ex) throws Exception {
    CreateQueueBody body = ex.body(CreateQueueBody.class, true);
    QueueNames.require("name", body.name());
    ex.authorizeQueue(body.name());
    ex.reply(views.queue(redrive.createQueue(body.name(), body.policy())));
  }

  private void get(Exchange ex) {
    String name = ex.path("name");
    Queue q = redrive.getQueue(name);
    Map<String, Object> view = views.queue(q);
    view.put("stats", views.stats(redrive.stats(name)));
    ex.reply(view);
  }

  private void update(Exchange ex) throws Exception {
    ObjectNode node = ex.bodyObject();
    JsonNode expire = node.get("expireAfter");
    boolean clear = expire != null && expire.isNull();
    UpdateQueueBody body = ex.json().convert(node, UpdateQueueBody.class);
    ex.reply(views.queue(redrive.updateQueue(ex.path("name"), body.update(clear))));
  }

  private void delete(Exchange ex) {
    redrive.deleteQueue(ex.path("name"));
    ex.noContent();
  }

  private void stats(Exchange ex) {
    String name = ex.path("name");
    redrive.getQueue(name);
    ex.reply(views.stats(redrive.stats(name)));
  }
}
