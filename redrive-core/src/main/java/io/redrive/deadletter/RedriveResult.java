package io.redrive.deadletter;

import java.util.List;

/**
 * The outcome of a redrive.
 *
 * @param moves each message moved (or that would move, for a dry run)
 * @param skipped ids that matched but have no source queue (or it no longer exists) and no {@code
 *     to} was given
 * @param dryRun true when nothing was changed
 * @param streams for each stream the redrive puts messages back into, its waiting messages in the
 *     order they will be delivered (what a dry run would make of them)
 */
public record RedriveResult(
    List<Move> moves, List<String> skipped, boolean dryRun, List<StreamOrder> streams) {

  public RedriveResult {
    streams = streams == null ? List.of() : List.copyOf(streams);
  }

  /** A redrive that touched no stream. */
  public RedriveResult(List<Move> moves, List<String> skipped, boolean dryRun) {
    this(moves, skipped, dryRun, List.of());
  }

  /**
   * One moved message.
   *
   * @param deadLetterId its id in the dead-letter queue
   * @param toQueue where it went
   * @param newId its id there: the same id, the row moves (null for a dry run)
   */
  public record Move(String deadLetterId, String toQueue, String newId) {}

  public int count() {
    return moves.size();
  }
}
