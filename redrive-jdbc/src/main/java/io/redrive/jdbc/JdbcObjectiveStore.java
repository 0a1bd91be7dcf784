package io.redrive.jdbc;

import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveKind;
import io.redrive.objective.ObjectiveMinute;
import io.redrive.store.ObjectiveMinutesParams;
import io.redrive.store.ObjectiveStore;
import io.redrive.store.SaveObjectiveParams;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The {@link ObjectiveStore} half of {@link JdbcStore}: each call in its transaction, the
 * statements in {@link ObjectiveRows}, the counting in {@link ObjectiveCounts}. Package-private
 * like {@link JdbcScheduleStore}, which extends it. Thread-safe.
 */
abstract class JdbcObjectiveStore implements ObjectiveStore {
  private final Transactions tx;
  private final ObjectiveRows rows;
  private final ObjectiveCounts counts;

  JdbcObjectiveStore(StoreParts parts) {
    this.tx = parts.tx();
    this.rows = new ObjectiveRows(tx.dialect());
    this.counts = new ObjectiveCounts(tx, rows);
  }

  /** The counts of this node's objectives, for the lease paths and {@link #close}. */
  final ObjectiveCounts objectiveCounts() {
    return counts;
  }

  @Override
  public void saveObjective(SaveObjectiveParams p) {
    tx.write(
        "save objective " + p.objective().name(),
        c -> {
          rows.save(c, p.objective(), p.now());
          return null;
        });
    counts.forgetDeclarations();
  }

  @Override
  public boolean deleteObjective(String name) {
    boolean deleted =
        counts.forgetting(
            name, () -> tx.write("delete objective " + name, c -> rows.delete(c, name)));
    counts.forgetDeclarations();
    return deleted;
  }

  @Override
  public List<Objective> listObjectives() {
    return tx.read("list objectives", rows::list);
  }

  @Override
  public List<ObjectiveMinute> objectiveMinutes(ObjectiveMinutesParams p) {
    counts.write(); // this node's own counts are read at once
    return tx.read("read objective " + p.name(), c -> rows.minutes(c, p.name(), p.from(), p.to()));
  }

  /**
   * Samples every AGE objective's oldest ready message at {@code now} and counts its minute within
   * or beyond; deletes counts older than {@link Objective#MAX_WINDOW}. Run by the node whose depth
   * snapshot won the minute, so each minute is sampled once.
   */
  final void sampleAges(Instant now) {
    List<Objective> ages =
        listObjectives().stream().filter(o -> o.kind() == ObjectiveKind.AGE).toList();
    for (Objective o : ages) {
      Duration oldest = tx.read("sample objective " + o.name(), c -> rows.oldestReady(c, o, now));
      counts.sampled(o, now, oldest.compareTo(o.bound()) <= 0);
    }
    tx.write(
        "delete old objective counts", c -> rows.deleteOlder(c, now.minus(Objective.MAX_WINDOW)));
  }
}
