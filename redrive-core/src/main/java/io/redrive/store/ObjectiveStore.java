package io.redrive.store;

import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveMinute;
import java.util.List;

/**
 * The objectives half of a store (docs/engine.md, "Objectives"). A store that has it implements
 * this beside {@link Store}; {@code Redrive} reaches it through {@code redrive.objectives()}.
 * Implementations are thread-safe; every method is one transaction.
 *
 * <p>The counts: a store counts, for each LATENCY objective, the first leases of matching messages
 * whose wait from when they became ready was within or beyond the bound, in memory, and writes them
 * with its throughput counters' rhythm (at most a second late; a node that dies loses what it had
 * not written). For each AGE objective, the node whose {@link Store#recordDepth} wins a minute
 * samples the objective's oldest ready message and counts that minute within or beyond. A queue
 * with no objective pays nothing on lease: the declared objectives are read at most once per {@link
 * #DECLARATIONS_TTL_SECONDS} per node.
 */
public interface ObjectiveStore {
  /** How long a node leases with the objectives it read last. */
  int DECLARATIONS_TTL_SECONDS = 5;

  /**
   * Creates the objective or replaces the one of that name; counts already kept under the name stay
   * (a changed bound applies from now on).
   */
  void saveObjective(SaveObjectiveParams params);

  /** Deletes the objective and its counts; false when there was none. */
  boolean deleteObjective(String name);

  /** Every objective, by name. */
  List<Objective> listObjectives();

  /** The objective's counts per minute from {@code from} to {@code to}, oldest first. */
  List<ObjectiveMinute> objectiveMinutes(ObjectiveMinutesParams params);
}
