package io.redrive;

import io.redrive.objective.Compliance;
import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveStatus;
import io.redrive.store.ObjectiveMinutesParams;
import io.redrive.store.ObjectiveStore;
import io.redrive.store.SaveObjectiveParams;
import io.redrive.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The engine's queue-age objectives (docs/engine.md, "Objectives"): save, delete, list, and each
 * one's status (compliance, burn rate, budget, time to exhaustion) now. Get it from {@link
 * Redrive#objectives()}. Thread-safe.
 */
public final class Objectives {
  private final Store store;
  private final ObjectiveStore objectives;
  private final Clock clock;

  Objectives(Store store, Clock clock) {
    this.store = store;
    this.objectives = store instanceof ObjectiveStore s ? s : null;
    this.clock = clock;
  }

  /**
   * Whether the store keeps objectives. Both bundled stores do; on a store of one's own that does
   * not, the reads answer none (the dashboard and {@code GET /v1/objectives} show nothing) and
   * {@link #save} and {@link #delete} throw {@link UnsupportedOperationException}.
   */
  public boolean kept() {
    return objectives != null;
  }

  private ObjectiveStore store() {
    if (objectives == null) {
      throw new UnsupportedOperationException(
          "objectives: the store " + store.getClass().getSimpleName() + " keeps no objectives");
    }
    return objectives;
  }

  /** Creates the objective or replaces the one of that name (its counts kept). */
  public void save(Objective objective) {
    if (objective == null) {
      throw new IllegalArgumentException("objective: must not be null");
    }
    store().saveObjective(new SaveObjectiveParams(objective, clock.instant()));
  }

  /** Deletes the objective and its counts; false when there was none. */
  public boolean delete(String name) {
    return store().deleteObjective(name);
  }

  /** Every objective, by name; none when the store keeps no objectives. */
  public List<Objective> list() {
    return kept() ? objectives.listObjectives() : List.of();
  }

  /** The objective named {@code name}, if there is one. */
  public Optional<Objective> find(String name) {
    return list().stream().filter(o -> o.name().equals(name)).findFirst();
  }

  /** How every objective stands now, by name. */
  public List<ObjectiveStatus> statuses() {
    Instant now = clock.instant();
    return list().stream().map(o -> status(o, now)).toList();
  }

  /** How {@code objective} stands now. */
  public ObjectiveStatus status(Objective objective) {
    return status(objective, clock.instant());
  }

  private ObjectiveStatus status(Objective objective, Instant now) {
    Instant from = Compliance.windowStart(objective.window(), now);
    return Compliance.of(
        objective,
        store().objectiveMinutes(new ObjectiveMinutesParams(objective.name(), from, now)),
        now);
  }
}
