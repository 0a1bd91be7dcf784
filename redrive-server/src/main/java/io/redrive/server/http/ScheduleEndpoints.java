package io.redrive.server.http;

import static io.javalin.http.HandlerType.DELETE;
import static io.javalin.http.HandlerType.GET;
import static io.javalin.http.HandlerType.POST;
import static io.javalin.http.HandlerType.PUT;

import io.redrive.Redrive;
import io.redrive.error.ScheduleNotFoundException;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.server.auth.AuthException;
import io.redrive.server.auth.Permission;
import io.redrive.server.http.ScheduleBodies.FiringView;
import io.redrive.server.http.ScheduleBodies.ScheduleBody;
import io.redrive.server.http.ScheduleBodies.ScheduleList;
import io.redrive.server.http.ScheduleBodies.ScheduleView;
import java.util.List;

/**
 * Recurring schedules: list, get, put (create or replace), delete, pause, resume, trigger. A key's
 * scope is a wall around what a schedule produces ({@link
 * io.redrive.server.auth.Principal#mayAccess(ScheduleTarget)}): a message schedule of a queue
 * outside its {@code queues}, or a workflow schedule of an orchestration outside its {@code
 * workflows}, answers as missing and cannot be created or replaced (403), as the queue and workflow
 * endpoints treat the message or instance it would produce.
 */
final class ScheduleEndpoints {
  private static final String ONE = "/v1/schedules/{schedule}";

  private final Redrive redrive;

  ScheduleEndpoints(Redrive redrive) {
    this.redrive = redrive;
  }

  List<Route> routes() {
    return List.of(
        Route.of(
            GET,
            "/v1/schedules",
            "List the recurring schedules with next and last fire times",
            Permission.VIEW,
            null,
            200,
            ScheduleList.class,
            this::list),
        Route.of(
            GET,
            ONE,
            "Get a recurring schedule",
            Permission.VIEW,
            null,
            200,
            ScheduleView.class,
            ex -> ex.reply(ScheduleView.of(visible(ex)))),
        Route.of(
            PUT,
            ONE,
            "Create or replace a recurring schedule",
            Permission.ADMIN,
            ScheduleBody.class,
            200,
            ScheduleView.class,
            this::put),
        Route.of(
            DELETE,
            ONE,
            "Delete a recurring schedule (what it produced stays)",
            Permission.ADMIN,
            null,
            204,
            null,
            ex -> {
              visible(ex);
              redrive.schedules().delete(ex.path("schedule"));
              ex.noContent();
            }),
        Route.of(
            POST,
            ONE + "/pause",
            "Pause a recurring schedule",
            Permission.ADMIN,
            null,
            200,
            ScheduleView.class,
            ex -> {
              visible(ex);
              ex.reply(ScheduleView.of(redrive.schedules().pause(ex.path("schedule"))));
            }),
        Route.of(
            POST,
            ONE + "/resume",
            "Resume a recurring schedule from its next due time after now",
            Permission.ADMIN,
            null,
            200,
            ScheduleView.class,
            ex -> {
              visible(ex);
              ex.reply(ScheduleView.of(redrive.schedules().resume(ex.path("schedule"))));
            }),
        Route.of(
            POST,
            ONE + "/trigger",
            "Produce a recurring schedule's target once now",
            Permission.ADMIN,
            null,
            200,
            FiringView.class,
            ex -> {
              visible(ex);
              ex.reply(FiringView.of(redrive.schedules().triggerNow(ex.path("schedule"))));
            }));
  }

  private void list(Exchange ex) {
    ex.reply(
        new ScheduleList(
            redrive.schedules().list().stream()
                .filter(s -> inScope(ex, s.schedule()))
                .map(ScheduleView::of)
                .toList()));
  }

  private void put(Exchange ex) throws Exception {
    Schedule s = ex.body(ScheduleBody.class).schedule(ex.path("schedule"));
    authorize(ex, s);
    Schedule old = redrive.schedules().find(s.name()).map(ScheduleInfo::schedule).orElse(null);
    if (old != null && !inScope(ex, old)) {
      // A name is unique, so its existence shows; what the hidden schedule produces does not.
      throw AuthException.forbidden(
          "schedule \"" + s.name() + "\" exists outside this key's scope: it cannot be replaced");
    }
    ex.reply(ScheduleView.of(redrive.schedules().save(s)));
  }

  /** The schedule of the path; not found also when the key's scope hides it. */
  private ScheduleInfo visible(Exchange ex) {
    String name = ex.path("schedule");
    ScheduleInfo info =
        redrive.schedules().find(name).orElseThrow(() -> new ScheduleNotFoundException(name));
    if (!inScope(ex, info.schedule())) {
      throw new ScheduleNotFoundException(name);
    }
    return info;
  }

  private static boolean inScope(Exchange ex, Schedule s) {
    return ex.inScope(s.target());
  }

  private static void authorize(Exchange ex, Schedule s) {
    if (s.target() instanceof ScheduleTarget.Message m) {
      ex.authorizeQueue(m.queue());
    } else if (!inScope(ex, s)) {
      throw AuthException.forbidden(
          "this key may not schedule orchestration \""
              + ((ScheduleTarget.Workflow) s.target()).name()
              + "\" (workflows scope)");
    }
  }
}
