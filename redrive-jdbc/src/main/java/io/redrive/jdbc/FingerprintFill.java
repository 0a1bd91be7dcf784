package io.redrive.jdbc;

import java.util.Collection;

/**
 * Fingerprints the dead rows that died before fingerprints were stored, {@link
 * DeadGroups#FILL_BATCH} per transaction, so that a grouped read or a fingerprint filter that
 * follows misses none. Thread-safe; entered by the store's calls that group or filter dead messages
 * by fingerprint, before their read.
 */
final class FingerprintFill {
  private final Transactions tx;
  private final DeadGroups deadGroups;

  FingerprintFill(Transactions tx, DeadGroups deadGroups) {
    this.tx = tx;
    this.deadGroups = deadGroups;
  }

  /**
   * Fills the dead rows of {@code queues} (null: every queue). One indexed read when there is
   * nothing to fill.
   */
  void fill(Collection<String> queues) {
    if (!tx.read("find dead messages without fingerprint", c -> deadGroups.needsFill(c, queues))) {
      return;
    }
    while (tx.write(
            "fingerprint dead messages", c -> deadGroups.fill(c, queues, DeadGroups.FILL_BATCH))
        == DeadGroups.FILL_BATCH) {
      // another batch may be left
    }
  }
}
