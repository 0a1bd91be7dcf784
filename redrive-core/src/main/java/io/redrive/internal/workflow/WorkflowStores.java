package io.redrive.internal.workflow;

import io.redrive.Redrive;
import io.redrive.queue.QueueDeclaration;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.Store;
import io.redrive.store.workflow.WorkflowStore;
import java.sql.Connection;
import java.util.Optional;

/**
 * What the workflow runtime needs of an engine beyond its public API: the store's workflow half,
 * and activity queues flagged workflow-owned (a flag the public API does not set). Exported only to
 * {@code io.redrive.workflow}; on the class path, ModuleBoundaryRulesTest keeps everyone else out.
 *
 * <p>Implementation notes: {@link Redrive} keeps its store private and lends it here alone, by
 * installing an {@link Engine} when its class initializes (the JDK's "shared secrets" idiom), so
 * every call that holds a {@code Redrive} finds the door installed.
 */
public final class WorkflowStores {
  private static volatile Engine engine;

  private WorkflowStores() {}

  /** What {@link Redrive} lends this class; implemented once, inside {@code Redrive}. */
  public interface Engine {
    /** The engine's store. */
    Store storeOf(Redrive redrive);

    /**
     * The connection of the application's transaction in progress that a write given {@code given}
     * (null: none) joins instead, or null (the engine's {@code CallerTransactions} rule).
     */
    Connection joinFor(Redrive redrive, Connection given);

    /** Hands back a connection {@link #joinFor} gave, once used. */
    void leave(Redrive redrive, Connection joined);

    /** As {@link Redrive#declareQueue}'s create path, flagging a created queue workflow-owned. */
    QueueDeclaration declareWorkflowOwned(Redrive redrive, String name, QueuePolicy policy);
  }

  /**
   * Called by {@link Redrive} as its class initializes; never by anyone else.
   *
   * @throws IllegalStateException when an engine is installed already
   */
  public static synchronized void install(Engine value) {
    if (engine != null) {
      throw new IllegalStateException("WorkflowStores: installed already (by Redrive)");
    }
    engine = value;
  }

  /** The workflow half of {@code redrive}'s store, or empty when its store keeps no workflows. */
  public static Optional<WorkflowStore> of(Redrive redrive) {
    return engine().storeOf(redrive) instanceof WorkflowStore w ? Optional.of(w) : Optional.empty();
  }

  /**
   * The workflow half of {@code redrive}'s store.
   *
   * @throws IllegalArgumentException when its store keeps no workflows
   */
  public static WorkflowStore require(Redrive redrive) {
    return of(redrive)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "redrive: its store ("
                        + engine().storeOf(redrive).getClass().getSimpleName()
                        + ") has no workflow half (WorkflowStore)"));
  }

  /**
   * Makes an activity queue exist: creates it workflow-owned with {@code policy}, or leaves an
   * existing queue as it is (CREATED or UNCHANGED; the caller checks that an existing one is
   * workflow-owned). Safe on many nodes at once: shares {@link Redrive#declareQueue}'s create path
   * and its handling of a node that loses the race.
   */
  public static QueueDeclaration declareActivityQueue(
      Redrive redrive, String name, QueuePolicy policy) {
    return engine().declareWorkflowOwned(redrive, name, policy);
  }

  /**
   * Runs {@code start} on the connection of the application's transaction in progress when the
   * engine's {@code CallerTransactions} find one (a start without a connection, or with one in
   * auto-commit mode, joins it, as an enqueue does); otherwise returns null, and the caller starts
   * as asked.
   */
  public static <T> T inCallerTransaction(
      Redrive redrive, Connection given, java.util.function.Function<Connection, T> start) {
    Connection joined = engine().joinFor(redrive, given);
    if (joined == null) {
      return null;
    }
    try {
      return start.apply(joined);
    } finally {
      engine().leave(redrive, joined);
    }
  }

  private static Engine engine() {
    Engine e = engine;
    if (e == null) {
      throw new IllegalStateException("WorkflowStores: no engine installed (Redrive not loaded)");
    }
    return e;
  }
}
