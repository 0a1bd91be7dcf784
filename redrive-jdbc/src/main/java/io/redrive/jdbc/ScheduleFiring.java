package io.redrive.jdbc;

import io.redrive.error.ScheduleNotFoundException;
import io.redrive.jdbc.workflow.Workflows;
import io.redrive.message.EnqueueResult;
import io.redrive.message.MessageIds;
import io.redrive.message.NewMessage;
import io.redrive.schedule.DueTimes;
import io.redrive.schedule.Firing;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.store.EnqueueParams;
import io.redrive.store.PauseScheduleParams;
import io.redrive.store.SaveScheduleParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The schedule statements that change rows inside one transaction: save, pause and resume, one
 * schedule's firing and a trigger. A firing produces its target through {@link Producing} (the
 * message, counted in the transaction's {@link Tally}) or {@link Workflows} (the instance) on the
 * same connection, so the row's advance and what it produced commit together.
 */
final class ScheduleFiring {
  private final ScheduleRows rows;
  private final Producing producing;
  private final Workflows workflows;

  ScheduleFiring(ScheduleRows rows, Producing producing, Workflows workflows) {
    this.rows = rows;
    this.producing = producing;
    this.workflows = workflows;
  }

  ScheduleInfo save(Connection c, SaveScheduleParams p) throws SQLException {
    Schedule s = p.schedule();
    Instant now = p.now();
    Optional<ScheduleInfo> old = rows.find(c, s.name(), true);
    if (old.isEmpty()) {
      ScheduleInfo created =
          new ScheduleInfo(s, now, next(s.spec(), now, now), null, null, 0, now, now);
      rows.insert(c, created);
      return created;
    }
    ScheduleInfo was = old.get();
    boolean respec = !was.schedule().spec().equals(s.spec());
    Instant anchor = respec ? now : was.anchor();
    boolean resumed = was.schedule().paused() && !s.paused();
    Instant next = respec || resumed ? next(s.spec(), anchor, now) : was.nextDueAt();
    ScheduleInfo saved =
        new ScheduleInfo(
            s,
            anchor,
            next,
            was.lastDueAt(),
            was.lastFiredAt(),
            was.skipped(),
            was.createdAt(),
            now);
    rows.update(c, saved);
    return saved;
  }

  ScheduleInfo pause(Connection c, PauseScheduleParams p) throws SQLException {
    ScheduleInfo was =
        rows.find(c, p.name(), true).orElseThrow(() -> new ScheduleNotFoundException(p.name()));
    if (was.schedule().paused() == p.paused()) {
      return was;
    }
    Instant next =
        p.paused() ? was.nextDueAt() : next(was.schedule().spec(), was.anchor(), p.now());
    ScheduleInfo saved =
        new ScheduleInfo(
            was.schedule().withPaused(p.paused()),
            was.anchor(),
            next,
            was.lastDueAt(),
            was.lastFiredAt(),
            was.skipped(),
            was.createdAt(),
            p.now());
    rows.update(c, saved);
    return saved;
  }

  /**
   * Fires one due schedule, if one is due and free: what it produced (empty when its catch-up fired
   * none), or empty when no schedule was claimed ({@code claimed[0]} says which, null when none).
   */
  List<Firing> fireOne(
      Connection c, Instant now, Duration completionWindow, Tally tally, ScheduleInfo[] claimed)
      throws SQLException {
    Optional<ScheduleInfo> due = rows.claimDue(c, now);
    if (due.isEmpty()) {
      return List.of();
    }
    ScheduleInfo s = due.get();
    claimed[0] = s;
    DueTimes.Plan plan =
        DueTimes.plan(s.schedule().spec(), s.anchor(), s.schedule().catchUp(), s.nextDueAt(), now);
    List<Firing> out = new ArrayList<>(plan.fire().size());
    for (Instant dueAt : plan.fire()) {
      out.add(produce(c, s.schedule(), dueAt, now, completionWindow, tally));
    }
    Instant lastDue =
        plan.fire().isEmpty() ? s.lastDueAt() : plan.fire().get(plan.fire().size() - 1);
    rows.update(
        c,
        new ScheduleInfo(
            s.schedule(),
            s.anchor(),
            plan.nextDueAt(),
            lastDue,
            plan.fire().isEmpty() ? s.lastFiredAt() : now,
            s.skipped() + plan.skipped(),
            s.createdAt(),
            s.updatedAt()));
    return out;
  }

  /**
   * Advances the schedule {@code name} past {@code now} without producing anything, counting its
   * due times as skipped: for a schedule whose target cannot be produced (its queue is gone).
   */
  void skipDue(Connection c, String name, Instant now) throws SQLException {
    Optional<ScheduleInfo> found = rows.find(c, name, true);
    if (found.isEmpty()
        || found.get().nextDueAt() == null
        || found.get().nextDueAt().isAfter(now)) {
      return;
    }
    ScheduleInfo s = found.get();
    DueTimes.Plan plan =
        DueTimes.plan(s.schedule().spec(), s.anchor(), s.schedule().catchUp(), s.nextDueAt(), now);
    rows.update(
        c,
        new ScheduleInfo(
            s.schedule(),
            s.anchor(),
            plan.nextDueAt(),
            s.lastDueAt(),
            s.lastFiredAt(),
            s.skipped() + plan.skipped() + plan.fire().size(),
            s.createdAt(),
            s.updatedAt()));
  }

  Firing trigger(
      Connection c,
      String name,
      Instant now,
      Duration completionWindow,
      Tally tally,
      ScheduleInfo[] found)
      throws SQLException {
    ScheduleInfo s =
        rows.find(c, name, true).orElseThrow(() -> new ScheduleNotFoundException(name));
    found[0] = s;
    Firing fired = produce(c, s.schedule(), now, now, completionWindow, tally);
    rows.update(
        c,
        new ScheduleInfo(
            s.schedule(),
            s.anchor(),
            s.nextDueAt(),
            s.lastDueAt(),
            now,
            s.skipped(),
            s.createdAt(),
            s.updatedAt()));
    return fired;
  }

  /** Produces the schedule's target for {@code dueAt}, or finds what an earlier firing produced. */
  private Firing produce(
      Connection c, Schedule s, Instant dueAt, Instant now, Duration window, Tally tally)
      throws SQLException {
    Duration jitter = s.jitterFor(dueAt);
    if (s.target() instanceof ScheduleTarget.Workflow w) {
      StartInstanceResult started =
          workflows.start(
              c,
              new StartInstanceParams(
                  s.instanceId(dueAt),
                  w.name(),
                  w.version(),
                  w.input(),
                  jitter.isZero() ? null : now.plus(jitter),
                  StartInstanceParams.IfExists.RETURN_EXISTING,
                  now));
      return new Firing(s.name(), dueAt, started.instanceId(), started.created());
    }
    ScheduleTarget.Message m = (ScheduleTarget.Message) s.target();
    Map<String, String> headers = new HashMap<>(m.headers());
    headers.put(Schedule.HEADER_NAME, s.name());
    headers.put(Schedule.HEADER_DUE, dueAt.toString());
    NewMessage message =
        new NewMessage(
                m.queue(),
                m.type(),
                m.payload(),
                headers,
                m.stream(),
                jitter,
                s.dedupeKey(dueAt),
                m.expireAfter())
            .withPriority(m.priority())
            .withLimitKey(m.limitKey());
    String id = MessageIds.next(Clock.fixed(now, ZoneOffset.UTC));
    EnqueueResult r =
        producing
            .enqueue(
                c,
                new EnqueueParams(List.of(new EnqueueParams.Entry(id, message)), now, window),
                false,
                tally)
            .get(0);
    return new Firing(s.name(), dueAt, r.id(), !r.duplicate(), m.queue());
  }

  private static Instant next(ScheduleSpec spec, Instant anchor, Instant now) {
    return spec.nextAfter(now, anchor).orElse(null);
  }
}
