package io.redrive;

import io.redrive.error.QueueNotFoundException;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueueNames;
import io.redrive.schedule.Firing;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleDeclaration;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.store.FireParams;
import io.redrive.store.PauseScheduleParams;
import io.redrive.store.SaveScheduleParams;
import io.redrive.store.ScheduleStore;
import io.redrive.store.Store;
import io.redrive.store.TriggerParams;
import io.redrive.store.workflow.StartInstanceParams;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The engine's recurring schedules (docs/engine.md, "Recurring schedules"): save, delete, list,
 * find, pause, resume, trigger now, and the firing the {@link io.redrive.maintenance.Scheduler}
 * runs. Get it from {@link Redrive#schedules()}. Every method validates its input before anything
 * changes. Thread-safe.
 */
public final class Schedules {
  private final Store store;
  private final ScheduleStore schedules;
  private final Clock clock;
  private final Validation validation;
  private final Duration completionWindow;
  private final EngineMetrics metrics;
  private final List<Runnable> saved = new CopyOnWriteArrayList<>();

  Schedules(
      Store store,
      Clock clock,
      Validation validation,
      Duration completionWindow,
      EngineMetrics metrics) {
    this.store = store;
    this.metrics = metrics;
    this.schedules = store instanceof ScheduleStore s ? s : null;
    this.clock = clock;
    this.validation = validation;
    this.completionWindow = completionWindow;
  }

  private ScheduleStore store() {
    if (schedules == null) {
      throw new UnsupportedOperationException(
          "schedules: the store " + store.getClass().getSimpleName() + " keeps no schedules");
    }
    return schedules;
  }

  /**
   * Creates the schedule, or replaces the one of that name (its next due time kept unless its spec
   * changed; see {@link ScheduleStore#saveSchedule}).
   *
   * @throws IllegalArgumentException naming the field and value when the target would not enqueue
   *     or start, or a cron names no future time; nothing changes
   * @throws QueueNotFoundException when a message target's queue does not exist
   */
  public ScheduleInfo save(Schedule schedule) {
    if (schedule == null) {
      throw new IllegalArgumentException("schedule: is required");
    }
    Instant now = clock.instant();
    if (schedule.spec().nextAfter(now, now).isEmpty()) {
      throw new IllegalArgumentException(
          "spec: " + schedule.spec() + " names no time after " + now);
    }
    Instant due = now.plus(Duration.ofDays(365 * 200L)); // the longest due time text
    if (schedule.target() instanceof ScheduleTarget.Message m) {
      validation.batch(List.of(sample(schedule, m, due)));
      if (store.findQueue(m.queue()).isEmpty()) {
        throw new QueueNotFoundException(m.queue());
      }
    } else {
      ScheduleTarget.Workflow w = (ScheduleTarget.Workflow) schedule.target();
      new StartInstanceParams(
          schedule.instanceId(due),
          w.name(),
          w.version(),
          w.input(),
          null,
          StartInstanceParams.IfExists.RETURN_EXISTING,
          now);
    }
    ScheduleInfo info = store().saveSchedule(new SaveScheduleParams(schedule, now));
    saved.forEach(Runnable::run);
    return info;
  }

  /** The message a firing produces for {@code due}, as the enqueue check sees it. */
  private static NewMessage sample(Schedule s, ScheduleTarget.Message m, Instant due) {
    Map<String, String> headers = new HashMap<>(m.headers());
    headers.put(Schedule.HEADER_NAME, s.name());
    headers.put(Schedule.HEADER_DUE, due.toString());
    return new NewMessage(
            m.queue(),
            m.type(),
            m.payload(),
            headers,
            m.stream(),
            s.jitter(),
            s.dedupeKey(due),
            m.expireAfter())
        .withPriority(m.priority())
        .withLimitKey(m.limitKey());
  }

  /**
   * Makes the schedule exist as declared (a configuration file's {@code [schedules.NAME]}, applied
   * at every start): creates it, or saves it when its spec, target, jitter or catch-up differ. The
   * stored {@code paused} flag wins over the declared one, so an operator's pause survives
   * restarts.
   *
   * @throws IllegalArgumentException as {@link #save}
   */
  public ScheduleDeclaration declare(Schedule declared) {
    return declare(declared, false);
  }

  /**
   * {@link #declare(Schedule)}, where {@code pauseAsDeclared} says whether the declaration decides
   * the pause too: then the stored schedule is paused or resumed as {@code declared.paused()} says
   * (a file that says {@code paused = false} resumes an operator's pause at start); else the stored
   * flag wins.
   *
   * @throws IllegalArgumentException as {@link #save}
   */
  public ScheduleDeclaration declare(Schedule declared, boolean pauseAsDeclared) {
    if (declared == null) {
      throw new IllegalArgumentException("schedule: is required");
    }
    Optional<ScheduleInfo> found = store().findSchedule(declared.name());
    if (found.isEmpty()) {
      return new ScheduleDeclaration(save(declared), ScheduleDeclaration.Outcome.CREATED);
    }
    Schedule wanted =
        pauseAsDeclared ? declared : declared.withPaused(found.get().schedule().paused());
    if (wanted.equals(found.get().schedule())) {
      return new ScheduleDeclaration(found.get(), ScheduleDeclaration.Outcome.UNCHANGED);
    }
    return new ScheduleDeclaration(save(wanted), ScheduleDeclaration.Outcome.UPDATED);
  }

  /** Deletes the schedule; false when there was none. What it produced stays. */
  public boolean delete(String name) {
    QueueNames.require("name", name);
    return store().deleteSchedule(name);
  }

  /** Every schedule with its next and last due and fire times, by name. */
  public List<ScheduleInfo> list() {
    return store().listSchedules();
  }

  /** The schedule, if there is one. */
  public Optional<ScheduleInfo> find(String name) {
    QueueNames.require("name", name);
    return store().findSchedule(name);
  }

  /**
   * Pauses the schedule: it fires nothing until resumed.
   *
   * @throws io.redrive.error.ScheduleNotFoundException when there is none
   */
  public ScheduleInfo pause(String name) {
    QueueNames.require("name", name);
    return store().pauseSchedule(new PauseScheduleParams(name, true, clock.instant()));
  }

  /**
   * Resumes the schedule from its first due time after now: due times paused over never fire.
   *
   * @throws io.redrive.error.ScheduleNotFoundException when there is none
   */
  public ScheduleInfo resume(String name) {
    QueueNames.require("name", name);
    ScheduleInfo info =
        store().pauseSchedule(new PauseScheduleParams(name, false, clock.instant()));
    saved.forEach(Runnable::run);
    return info;
  }

  /**
   * Produces the schedule's target once now (dedupe key and instance id by the trigger time),
   * leaving its due times as they are.
   *
   * @throws io.redrive.error.ScheduleNotFoundException when there is none
   */
  public Firing triggerNow(String name) {
    QueueNames.require("name", name);
    Firing fired =
        store().triggerSchedule(new TriggerParams(name, clock.instant(), completionWindow));
    metrics.fired(List.of(fired));
    return fired;
  }

  /**
   * Fires the schedules due now, up to {@code limit} of them (what the {@link
   * io.redrive.maintenance.Scheduler} runs); safe on every node at once. None on a store that keeps
   * no schedules.
   */
  public List<Firing> fireDue(int limit) {
    if (schedules == null) {
      return List.of(); // a store without schedules has none due
    }
    List<Firing> fired =
        schedules.fireDueSchedules(new FireParams(clock.instant(), limit, completionWindow));
    metrics.fired(fired);
    return fired;
  }

  /** The earliest next due time of a schedule that is not paused; empty when none. */
  public Optional<Instant> nextDueAt() {
    return schedules == null ? Optional.empty() : schedules.nextScheduleDueAt();
  }

  /** Calls {@code listener} after each save or resume on this node (the scheduler's wake-up). */
  public void onSaved(Runnable listener) {
    saved.add(listener);
  }
}
