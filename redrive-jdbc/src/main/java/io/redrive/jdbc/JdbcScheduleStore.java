package io.redrive.jdbc;

import io.redrive.error.NotFoundException;
import io.redrive.schedule.Firing;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.store.FireParams;
import io.redrive.store.PauseScheduleParams;
import io.redrive.store.SaveScheduleParams;
import io.redrive.store.ScheduleStore;
import io.redrive.store.TriggerParams;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ScheduleStore} half of {@link JdbcStore}: each call in its transaction, the statements
 * in {@link ScheduleRows} and {@link ScheduleFiring}. Package-private like {@link
 * JdbcWorkflowStore}, which extends it; {@code JdbcStore} supplies the wake-ups. Thread-safe;
 * entered by the scheduler's thread and by callers of {@code redrive.schedules()}.
 */
abstract class JdbcScheduleStore extends JdbcObjectiveStore implements ScheduleStore {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcScheduleStore.class);

  private final Transactions tx;
  private final CountedWrites counted;
  private final ScheduleRows rows;
  private final ScheduleFiring firing;

  JdbcScheduleStore(StoreParts parts) {
    super(parts);
    this.tx = parts.tx();
    this.counted = parts.counted();
    this.rows = parts.scheduleRows();
    this.firing = parts.scheduleFiring();
  }

  /**
   * Called after a commit made messages of {@code queue} ready: wakes this node's subscribers and
   * tells other nodes.
   */
  abstract void readyCommitted(String queue);

  @Override
  public ScheduleInfo saveSchedule(SaveScheduleParams p) {
    return tx.write("save schedule " + p.schedule().name(), c -> firing.save(c, p));
  }

  @Override
  public boolean deleteSchedule(String name) {
    return tx.write("delete schedule " + name, c -> rows.delete(c, name));
  }

  @Override
  public Optional<ScheduleInfo> findSchedule(String name) {
    return tx.read("find schedule " + name, c -> rows.find(c, name, false));
  }

  @Override
  public List<ScheduleInfo> listSchedules() {
    return tx.read("list schedules", rows::list);
  }

  @Override
  public ScheduleInfo pauseSchedule(PauseScheduleParams p) {
    return tx.write(
        (p.paused() ? "pause" : "resume") + " schedule " + p.name(), c -> firing.pause(c, p));
  }

  @Override
  public List<Firing> fireDueSchedules(FireParams p) {
    List<Firing> out = new ArrayList<>();
    Set<String> queues = new LinkedHashSet<>();
    for (int i = 0; i < p.limit(); i++) {
      ScheduleInfo[] claimed = new ScheduleInfo[1];
      try {
        out.addAll(
            counted.write(
                "fire due schedules",
                p.now(),
                (c, tally) -> firing.fireOne(c, p.now(), p.completionWindow(), tally, claimed)));
        queueOf(claimed[0]).ifPresent(queues::add);
      } catch (NotFoundException e) {
        if (claimed[0] == null) {
          throw e;
        }
        // The target's queue is gone: skip its due times, or it would block every firing after it.
        String name = claimed[0].name();
        LOG.warn("schedule {} skipped its due times: {}", name, e.getMessage());
        tx.write(
            "skip schedule " + name,
            c -> {
              firing.skipDue(c, name, p.now());
              return null;
            });
        continue;
      }
      if (claimed[0] == null) {
        break;
      }
    }
    queues.forEach(this::readyCommitted);
    return out;
  }

  @Override
  public Firing triggerSchedule(TriggerParams p) {
    ScheduleInfo[] found = new ScheduleInfo[1];
    Firing fired =
        counted.write(
            "trigger schedule " + p.name(),
            p.now(),
            (c, tally) -> firing.trigger(c, p.name(), p.now(), p.completionWindow(), tally, found));
    queueOf(found[0]).ifPresent(this::readyCommitted);
    return fired;
  }

  @Override
  public Optional<Instant> nextScheduleDueAt() {
    return tx.read("next schedule due", rows::nextDueAt);
  }

  /** The queue a schedule's messages go to; empty for a workflow start (announced on commit). */
  private static Optional<String> queueOf(ScheduleInfo s) {
    return s != null && s.schedule().target() instanceof ScheduleTarget.Message m
        ? Optional.of(m.queue())
        : Optional.empty();
  }
}
