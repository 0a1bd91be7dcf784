package io.redrive.store.workflow;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Input of {@link WorkflowStore#leaseTurn}.
 *
 * @param node the leasing node's id, kept on the instance and in turn rows
 * @param leaseTimeout how long the turn lease lasts unless renewed
 * @param maxBatch at most this many inbox rows in the batch (1–10 000)
 * @param now the engine's clock
 * @param build the code build the node runs (kept on the instance and in turn rows), or null
 * @param known the histories the node holds already ({@link KnownHistory#NONE}: none)
 * @param stickyWait how long an instance that sticks to another node ({@link
 *     CommitTurnParams#stickyNode}) is left to it: its turn is taken here only once its oldest
 *     visible inbox row has been visible this long ({@link Duration#ZERO}: at once, stickiness
 *     ignored); not negative
 */
public record LeaseTurnParams(
    String node,
    Duration leaseTimeout,
    int maxBatch,
    Instant now,
    String build,
    KnownHistory known,
    Duration stickyWait) {
  public LeaseTurnParams {
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(known, "known");
    if (stickyWait == null || stickyWait.isNegative()) {
      throw new IllegalArgumentException("stickyWait: must not be negative, was " + stickyWait);
    }
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("node is required");
    }
    if (leaseTimeout == null || leaseTimeout.isNegative() || leaseTimeout.isZero()) {
      throw new IllegalArgumentException("leaseTimeout: must be positive, was " + leaseTimeout);
    }
    if (maxBatch < 1 || maxBatch > 10_000) {
      throw new IllegalArgumentException("maxBatch: 1 to 10000, was " + maxBatch);
    }
  }

  /** A lease that takes any due instance, sticking or not. */
  public LeaseTurnParams(
      String node,
      Duration leaseTimeout,
      int maxBatch,
      Instant now,
      String build,
      KnownHistory known) {
    this(node, leaseTimeout, maxBatch, now, build, known, Duration.ZERO);
  }

  /** A lease by a node that holds no history. */
  public LeaseTurnParams(
      String node, Duration leaseTimeout, int maxBatch, Instant now, String build) {
    this(node, leaseTimeout, maxBatch, now, build, KnownHistory.NONE, Duration.ZERO);
  }

  /** A lease by a node that names no build and holds no history. */
  public LeaseTurnParams(String node, Duration leaseTimeout, int maxBatch, Instant now) {
    this(node, leaseTimeout, maxBatch, now, null, KnownHistory.NONE, Duration.ZERO);
  }
}
