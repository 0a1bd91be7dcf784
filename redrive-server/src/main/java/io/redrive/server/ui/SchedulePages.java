package io.redrive.server.ui;

import io.javalin.http.HttpStatus;
import io.redrive.Redrive;
import io.redrive.error.ScheduleNotFoundException;
import io.redrive.schedule.Firing;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.server.auth.Permission;
import java.time.Instant;
import java.util.List;

/**
 * The recurring schedules pages ({@code /ui/schedules}, {@code /ui/schedules/{name}}) and their
 * actions (pause, resume, trigger now). The key's scope is the API's wall ({@link
 * io.redrive.server.auth.Principal#mayAccess(ScheduleTarget)}): a schedule producing into a queue
 * or orchestration outside it answers as missing and is left out of the list; every action needs
 * the API's role (ADMIN), checked again on the server whatever the page showed.
 */
final class SchedulePages {
  private static final String ROOT = Dashboard.ROOT + "/schedules";

  private final Redrive redrive;
  private final Dashboard dashboard;

  SchedulePages(Redrive redrive, Dashboard dashboard) {
    this.redrive = redrive;
    this.dashboard = dashboard;
  }

  void register(Dashboard.Routes routes) {
    routes.add("GET", ROOT, this::list);
    routes.add("GET", ROOT + "/{name}", r -> show(r, visible(r), firedOf(r)));
    routes.add("POST", ROOT + "/{name}/pause", r -> pause(r, true));
    routes.add("POST", ROOT + "/{name}/resume", r -> pause(r, false));
    routes.add("POST", ROOT + "/{name}/trigger", this::trigger);
  }

  private void list(UiRequest r) {
    List<ScheduleRow> all =
        redrive.schedules().list().stream()
            .filter(s -> r.principal().mayAccess(s.schedule().target()))
            .map(ScheduleRow::new)
            .toList();
    int offset = offset(r);
    int end = Math.min(all.size(), offset + SchedulesView.PAGE);
    List<ScheduleRow> page = offset >= all.size() ? List.of() : all.subList(offset, end);
    dashboard.page(
        r,
        "schedules.jte",
        "Schedules",
        new SchedulesView(page, offset, end < all.size() ? end : null, all.size()));
  }

  private static int offset(UiRequest r) {
    String v = r.query("offset");
    if (v == null || v.isBlank()) {
      return 0;
    }
    try {
      int n = Integer.parseInt(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("offset: must be a whole number ≥ 0, was \"" + v + "\"");
  }

  /** The schedule of the path; SCHEDULE_NOT_FOUND also when the key's scope hides it. */
  private ScheduleInfo visible(UiRequest r) {
    String name = r.path("name");
    ScheduleInfo info =
        redrive.schedules().find(name).orElseThrow(() -> new ScheduleNotFoundException(name));
    if (!r.principal().mayAccess(info.schedule().target())) {
      throw new ScheduleNotFoundException(name);
    }
    return info;
  }

  /** The schedule, after checking the visitor may act on it as the API would (ADMIN). */
  private ScheduleInfo actionable(UiRequest r) {
    ScheduleInfo info = visible(r);
    r.require(
        Permission.ADMIN,
        info.schedule().target() instanceof ScheduleTarget.Message m ? m.queue() : null);
    return info;
  }

  private void show(UiRequest r, ScheduleInfo info, Firing fired) {
    ScheduleRow row = new ScheduleRow(info);
    boolean mayAct = r.may(Permission.ADMIN, row.message() != null ? row.message().queue() : null);
    dashboard.page(
        r,
        "schedule.jte",
        "Schedule " + info.name(),
        new ScheduleView(
            row,
            mayAct,
            fired,
            row.message() == null ? null : WorkflowPages.pretty(row.message().payload()),
            row.workflow() == null ? null : WorkflowPages.pretty(row.workflow().input())));
  }

  private void pause(UiRequest r, boolean pause) {
    ScheduleInfo info = actionable(r);
    if (pause) {
      redrive.schedules().pause(info.name());
    } else {
      redrive.schedules().resume(info.name());
    }
    r.ctx().redirect(ROOT + "/" + Fmt.seg(info.name()), HttpStatus.SEE_OTHER);
  }

  /**
   * Produces the target once now and sends the visitor to the schedule's page, which says what it
   * produced (post, redirect, get: reloading that page shows it again and fires nothing).
   */
  private void trigger(UiRequest r) {
    ScheduleInfo info = actionable(r);
    Firing fired = redrive.schedules().triggerNow(info.name());
    r.ctx()
        .redirect(
            ROOT
                + "/"
                + Fmt.seg(info.name())
                + "?fired="
                + Fmt.seg(fired.producedId())
                + "&due="
                + fired.dueAt().toEpochMilli()
                + (fired.created() ? "&created=1" : ""),
            HttpStatus.SEE_OTHER);
  }

  /**
   * What the redirect after "Trigger now" says was produced (only shown: the page links to it, and
   * a made-up one links to a message or instance that is not there).
   */
  private static Firing firedOf(UiRequest r) {
    String id = r.query("fired");
    String due = r.query("due");
    if (id == null || id.isBlank() || due == null) {
      return null;
    }
    try {
      return new Firing(
          r.path("name"),
          Instant.ofEpochMilli(Long.parseLong(due)),
          id,
          r.query("created") != null);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
