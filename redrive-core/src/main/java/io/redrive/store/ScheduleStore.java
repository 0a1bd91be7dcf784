package io.redrive.store;

import io.redrive.schedule.Firing;
import io.redrive.schedule.ScheduleInfo;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The recurring-schedules half of a store (docs/engine.md, "Recurring schedules"). A store that has
 * it implements this beside {@link Store}; {@code Redrive} reaches it through {@code
 * redrive.schedules()}. Implementations are thread-safe; every method is one transaction, except
 * {@link #fireDueSchedules}, which is one per schedule fired.
 *
 * <p>The promise: each due time of a schedule produces its target once, however many nodes fire at
 * once. A firing claims a due row (PostgreSQL: {@code FOR UPDATE SKIP LOCKED}), produces the target
 * and advances the row's next due time in the same transaction; a firing that dies before its
 * commit changed nothing, and the next firer (any node) does the work. The produced message's
 * dedupe key ({@code schedule:<name>:<due epoch ms>}) and the instance id ({@code <name>-<due epoch
 * ms>}) make a second production of one due time find the first.
 */
public interface ScheduleStore {

  /**
   * Creates the schedule or replaces the one of that name. A new schedule (or one whose spec
   * changed) is next due at its first due time after {@code now}, an interval counted from {@code
   * now}; an unchanged spec keeps its next due time, and resuming through a save goes on from the
   * first due time after {@code now}. The last due and fire times are kept.
   */
  ScheduleInfo saveSchedule(SaveScheduleParams params);

  /** Deletes the schedule; false when there was none. What it produced stays. */
  boolean deleteSchedule(String name);

  /** The schedule with this name, if there is one. */
  Optional<ScheduleInfo> findSchedule(String name);

  /** Every schedule, by name. */
  List<ScheduleInfo> listSchedules();

  /**
   * Pauses or resumes the schedule. A resume sets the next due time to the first one after {@code
   * now}: the due times paused over never fire, whatever the catch-up policy (a pause is someone's
   * decision, not an outage).
   *
   * @throws io.redrive.error.ScheduleNotFoundException when there is no such schedule; nothing
   *     changes
   */
  ScheduleInfo pauseSchedule(PauseScheduleParams params);

  /**
   * Fires up to {@code limit} schedules whose next due time is at or before {@code now} and that
   * are not paused, each in its own transaction: the catch-up policy picks the due times that
   * produce (docs/engine.md), and the row advances to the first due time after {@code now}. A
   * schedule whose target cannot be produced (its queue was deleted) has its due times skipped and
   * counted, so it does not block the others. Returns what was produced, oldest due time first per
   * schedule.
   */
  List<Firing> fireDueSchedules(FireParams params);

  /**
   * Produces the schedule's target once now, due at {@code now} (dedupe key and instance id by that
   * time), leaving its due times as they are; paused schedules may be triggered too.
   *
   * @throws io.redrive.error.ScheduleNotFoundException when there is no such schedule
   */
  Firing triggerSchedule(TriggerParams params);

  /** The earliest next due time of a schedule that is not paused; empty when none is. */
  Optional<Instant> nextScheduleDueAt();
}
