package io.redrive.lease;

import java.util.List;

/**
 * The outcome of one settle-then-lease call ({@link io.redrive.Redrive#settleThenLease}): the
 * settles committed with the lease that followed them, in one transaction where the store allows.
 *
 * @param settlements one per settle command, in order: what it did, or why its lease was lost
 * @param lease what the lease after them delivered and killed
 */
public record SettledThenLeased(List<Settlement> settlements, LeaseResult lease) {
  public SettledThenLeased {
    settlements = List.copyOf(settlements);
  }
}
