package io.redrive.server.http;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.PUT;

import io.redrive.Redrive;
import io.redrive.error.ObjectiveNotFoundException;
import io.redrive.objective.Objective;
import io.redrive.server.auth.AuthException;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.ObjectiveBodies.ObjectiveBody;
import io.redrive.server.http.ObjectiveBodies.ObjectiveList;
import io.redrive.server.http.ObjectiveBodies.ObjectiveView;
import java.util.List;

/**
 * Queue-age objectives: list and get (with how each stands now), put (create or replace), delete. A
 * key's scope hides the objectives of queues outside it, as it hides those queues.
 */
final class ObjectiveEndpoints {
  private static final String ONE = "/v1/objectives/{objective}";

  private final Redrive redrive;

  ObjectiveEndpoints(Redrive redrive) {
    this.redrive = redrive;
  }

  List<Route> routes() {
    return List.of(
        Route.of(
            GET,
            "/v1/objectives",
            "List the queue-age objectives with compliance, burn rate and budget",
            Permission.VIEW,
            null,
            200,
            ObjectiveList.class,
            ex ->
                ex.reply(
                    new ObjectiveList(
                        redrive.objectives().statuses().stream()
                            .filter(s -> ex.inScope(s.objective().queue()))
                            .map(ObjectiveView::of)
                            .toList()))),
        Route.of(
            GET,
            ONE,
            "Get a queue-age objective and how it stands",
            Permission.VIEW,
            null,
            200,
            ObjectiveView.class,
            ex -> ex.reply(ObjectiveView.of(redrive.objectives().status(visible(ex))))),
        Route.of(
            PUT,
            ONE,
            "Create or replace a queue-age objective",
            Permission.ADMIN,
            ObjectiveBody.class,
            200,
            ObjectiveView.class,
            this::put),
        Route.of(
            DELETE,
            ONE,
            "Delete a queue-age objective and its counts",
            Permission.ADMIN,
            null,
            204,
            null,
            ex -> {
              visible(ex);
              redrive.objectives().delete(ex.path("objective"));
              ex.noContent();
            }));
  }

  private void put(Exchange ex) throws Exception {
    Objective o = ex.body(ObjectiveBody.class).objective(ex.path("objective"));
    ex.authorizeQueue(o.queue());
    Objective old = redrive.objectives().find(o.name()).orElse(null);
    if (old != null && !ex.inScope(old.queue())) {
      throw AuthException.forbidden(
          "objective \"" + o.name() + "\" exists outside this key's scope: it cannot be replaced");
    }
    redrive.objectives().save(o);
    ex.reply(ObjectiveView.of(redrive.objectives().status(o)));
  }

  /** The objective of the path; not found also when the key's scope hides its queue. */
  private Objective visible(Exchange ex) {
    String name = ex.path("objective");
    Objective o =
        redrive.objectives().find(name).orElseThrow(() -> new ObjectiveNotFoundException(name));
    if (!ex.inScope(o.queue())) {
      throw new ObjectiveNotFoundException(name);
    }
    return o;
  }
}
