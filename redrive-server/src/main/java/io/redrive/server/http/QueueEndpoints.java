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
import io.redrive.queue.QueueUpdate;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.QueueBodies.CreateQueueBody;
import io.redrive.server.http.QueueBodies.UpdateQueueBody;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Queue administration: list, create, get, update, delete, pause, resume, stats, throughput. */
final class QueueEndpoints {
  private final Redrive redrive;
  private final Views views;

  QueueEndpoints(Redrive redrive, Views views) {
    this.redrive = redrive;
    this.views = views;
  }

  List<Route> routes() {
    Route throughput =
        Route.of(
                GET,
                "/v1/queues/{name}/throughput",
                "Throughput of a queue: per-minute counts and depth",
                Permission.VIEW,
                null,
                200,
                Responses.Throughput.class,
                this::throughput)
            .withQueryParams("minutes");
    Route throughputOfAll =
        Route.of(
                GET,
                "/v1/throughput",
                "Throughput of every queue the key may view, summed: per-minute counts and depth",
                Permission.VIEW,
                null,
                200,
                Responses.Throughput.class,
                this::throughputOfAll)
            .withQueryParams("minutes");
    return List.of(
        Route.of(
            GET,
            "/v1/queues",
            "List the queues the key may view",
            Permission.VIEW,
            null,
            200,
            Responses.QueueList.class,
            this::list),
        Route.of(
            POST,
            "/v1/queues",
            "Create a queue",
            Permission.ADMIN,
            CreateQueueBody.class,
            201,
            Responses.Queue.class,
            this::create),
        Route.of(
            GET,
            "/v1/queues/{name}",
            "Get a queue with its stats",
            Permission.VIEW,
            null,
            200,
            Responses.QueueWithStats.class,
            this::get),
        Route.of(
                PATCH,
                "/v1/queues/{name}",
                "Change a queue's policy (merge)",
                Permission.ADMIN,
                UpdateQueueBody.class,
                200,
                Responses.Queue.class,
                this::update)
            .optionalBody(),
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
            Responses.Queue.class,
            ex -> ex.reply(views.queue(redrive.pauseQueue(ex.path("name")), ex::inScope))),
        Route.of(
            POST,
            "/v1/queues/{name}/resume",
            "Resume leasing from a queue",
            Permission.ADMIN,
            null,
            200,
            Responses.Queue.class,
            ex -> ex.reply(views.queue(redrive.resumeQueue(ex.path("name")), ex::inScope))),
        Route.of(
            GET,
            "/v1/queues/{name}/stats",
            "Counts, attempts and reasons of a queue",
            Permission.VIEW,
            null,
            200,
            Responses.Stats.class,
            this::stats),
        throughput,
        throughput.aliasAt("/v1/queues/{name}/activity"),
        throughputOfAll,
        throughputOfAll.aliasAt("/v1/activity"));
  }

  private void list(Exchange ex) {
    List<Responses.Queue> queues = new ArrayList<>();
    for (Queue q : redrive.listQueues()) {
      if (ex.mayAccess(Permission.VIEW, q.name())) {
        queues.add(views.queue(q, ex::inScope));
      }
    }
    ex.reply(new Responses.QueueList(queues));
  }

  private void create(Exchange ex) throws Exception {
    CreateQueueBody body = ex.body(CreateQueueBody.class);
    QueueNames.require("name", body.name());
    ex.authorizeQueue(body.name());
    // Checked before the engine looks the dead-letter queue up, so the refusal is the same whether
    // that queue exists or not.
    authorizeDeadLetterQueue(ex, body.policy().deadLetter().queue());
    ex.reply(views.queue(redrive.createQueue(body.name(), body.policy()), ex::inScope));
  }

  private void get(Exchange ex) {
    String name = ex.path("name");
    Queue q = redrive.getQueue(name);
    ex.reply(views.queueWithStats(q, redrive.stats(name), ex::inScope));
  }

  private void update(Exchange ex) throws Exception {
    ObjectNode node = ex.bodyObject();
    UpdateQueueBody body = ex.json().convert(node, UpdateQueueBody.class);
    QueueUpdate update =
        body.update(
            isNull(node, "expireAfter"),
            isNull(node, "deadLetterQueue"),
            isNull(node, "limits"),
            isNull(node, "circuit"));
    if (update.deadLetter() != null) {
      authorizeDeadLetterQueue(ex, update.deadLetter().queue());
    }
    ex.reply(views.queue(redrive.updateQueue(ex.path("name"), update), ex::inScope));
  }

  /** A key limited to some queues may only send dead letters to a queue in its scope. */
  private static void authorizeDeadLetterQueue(Exchange ex, String deadLetterQueue) {
    if (deadLetterQueue != null) {
      ex.authorizeQueue(deadLetterQueue);
    }
  }

  /** True when the body gives {@code field} as an explicit null (which clears it). */
  private static boolean isNull(ObjectNode node, String field) {
    JsonNode value = node.get(field);
    return value != null && value.isNull();
  }

  private void delete(Exchange ex) {
    redrive.deleteQueue(ex.path("name"));
    ex.noContent();
  }

  private void throughput(Exchange ex) {
    String name = ex.path("name");
    int minutes = minutes(ex);
    ex.reply(
        views.throughput(name, minutes, redrive.throughput(name, Duration.ofMinutes(minutes))));
  }

  /** A key limited to some queues gets the sum of those it may view, never the others'. */
  private void throughputOfAll(Exchange ex) {
    int minutes = minutes(ex);
    Duration window = Duration.ofMinutes(minutes);
    if (!ex.scoped()) {
      ex.reply(views.throughput(null, minutes, redrive.throughput((String) null, window)));
      return;
    }
    List<String> visible = new ArrayList<>();
    for (Queue q : redrive.listQueues()) {
      if (ex.mayAccess(Permission.VIEW, q.name())) {
        visible.add(q.name());
      }
    }
    ex.reply(views.throughput(null, minutes, redrive.throughputOf(visible, window)));
  }

  /** The {@code minutes} query parameter: 1 to 1440, default 60. */
  private static int minutes(Exchange ex) {
    String value = ex.query("minutes");
    if (value == null) {
      return 60;
    }
    long n;
    try {
      n = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("minutes: a whole number, was \"" + value + "\"");
    }
    if (n < 1 || n > 1440) {
      throw new IllegalArgumentException("minutes: must be between 1 and 1440, was " + n);
    }
    return (int) n;
  }

  private void stats(Exchange ex) {
    String name = ex.path("name");
    redrive.getQueue(name);
    ex.reply(views.stats(redrive.stats(name)));
  }
}
