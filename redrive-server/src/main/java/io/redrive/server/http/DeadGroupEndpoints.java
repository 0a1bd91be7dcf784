package io.redrive.server.http;

import static io.javalin.http.HandlerType.GET;

import io.redrive.Redrive;
import io.redrive.deadletter.DeadGroup;
import io.redrive.deadletter.DeadGroupPage;
import io.redrive.deadletter.DeadGroupQuery;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueNames;
import io.redrive.server.auth.Permission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Dead-letter groups: a queue's (or every visible queue's) dead messages counted by the cause they
 * died of, largest group first, one page per call. A group's {@code fingerprint} is then a filter
 * of listing, retry, drop and redrive.
 */
final class DeadGroupEndpoints {
  private static final int DEFAULT_LIMIT = 100;

  private final Redrive redrive;

  DeadGroupEndpoints(Redrive redrive) {
    this.redrive = redrive;
  }

  List<Route> routes() {
    return List.of(
        Route.of(
                GET,
                "/v1/dead-groups",
                "Dead-letter groups of every queue the caller may view (or of ?queue=), largest"
                    + " first",
                Permission.VIEW,
                null,
                200,
                Responses.DeadGroupPage.class,
                this::all)
            .withQueryParams("queue", "limit", "offset"),
        Route.of(
                GET,
                "/v1/queues/{name}/dead-groups",
                "Dead-letter groups of a queue, largest first",
                Permission.VIEW,
                null,
                200,
                Responses.DeadGroupPage.class,
                this::ofQueue)
            .withQueryParams("limit", "offset"));
  }

  private void all(Exchange ex) {
    String queue = ex.query("queue");
    Set<String> queues;
    if (queue != null) {
      QueueNames.require("queue", queue);
      ex.authorizeQueue(queue);
      redrive.getQueue(queue);
      queues = Set.of(queue);
    } else {
      queues = visibleQueues(ex);
    }
    reply(ex, queues);
  }

  private void ofQueue(Exchange ex) {
    String queue = ex.path("name");
    redrive.getQueue(queue);
    reply(ex, Set.of(queue));
  }

  /** Null (every queue, no list sent to the store) unless the caller may not view some queue. */
  private Set<String> visibleQueues(Exchange ex) {
    Set<String> visible = new HashSet<>();
    boolean all = true;
    for (Queue q : redrive.listQueues()) {
      if (ex.mayAccess(Permission.VIEW, q.name())) {
        visible.add(q.name());
      } else {
        all = false;
      }
    }
    return all && !ex.scoped() ? null : visible;
  }

  private void reply(Exchange ex, Set<String> queues) {
    DeadGroupQuery query =
        new DeadGroupQuery(
            queues,
            number(ex, "limit", DEFAULT_LIMIT, 1, DeadGroupQuery.MAX_LIMIT),
            number(ex, "offset", 0, 0, Integer.MAX_VALUE));
    DeadGroupPage page = redrive.deadGroups(query);
    List<Responses.DeadGroup> groups = new ArrayList<>(page.groups().size());
    for (DeadGroup g : page.groups()) {
      groups.add(Views.deadGroup(g));
    }
    ex.reply(new Responses.DeadGroupPage(groups, page.nextOffset()));
  }

  private static int number(Exchange ex, String field, int absent, int min, int max) {
    String text = ex.query(field);
    if (text == null) {
      return absent;
    }
    int value;
    try {
      value = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field + ": expected a whole number, was \"" + text + "\"");
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          field + ": must be between " + min + " and " + max + ", was " + value);
    }
    return value;
  }
}
