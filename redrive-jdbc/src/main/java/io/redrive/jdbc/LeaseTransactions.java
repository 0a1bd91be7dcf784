package io.redrive.jdbc;

import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.store.LeaseParams;
import java.util.ArrayList;
import java.util.List;

/**
 * How a lease call runs in transactions: in one counted write transaction ({@link Leasing#lease}),
 * or, where the dialect runs single statements committed alone, a first round that way ({@link
 * Leasing#leaseAlone}) and the rest, when that round left any, in the transaction. Thread-safe;
 * entered from {@link JdbcStore#leaseReady}.
 */
final class LeaseTransactions {
  private final Transactions tx;
  private final CountedWrites counted;
  private final Leasing leasing;

  LeaseTransactions(Transactions tx, CountedWrites counted, Leasing leasing) {
    this.tx = tx;
    this.counted = counted;
    this.leasing = leasing;
  }

  LeaseResult lease(LeaseParams p) {
    String what = "lease from " + p.queue();
    if (!leasing.leasesAlone()) {
      return counted.write(what, p.now(), (c, tally) -> leasing.lease(c, p, tally));
    }
    Leasing.FirstRound first = tx.writeAlone(what, c -> leasing.leaseAlone(c, p));
    if (first.finished()) {
      return first.result();
    }
    List<LeasedMessage> leased = first.result().leased();
    LeaseParams rest =
        new LeaseParams(
            p.queue(),
            p.worker(),
            p.max() - leased.size(),
            p.leaseTimeout(),
            p.now(),
            p.batch(),
            p.types(),
            p.node());
    LeaseResult more;
    try {
      more = counted.write(what, rest.now(), (c, tally) -> leasing.lease(c, rest, tally));
    } catch (RuntimeException e) {
      if (leased.isEmpty()) {
        throw e;
      }
      // The first round's leases are committed: hand them out rather than let them run out.
      return first.result();
    }
    List<LeasedMessage> all = new ArrayList<>(leased);
    all.addAll(more.leased());
    return new LeaseResult(
        all, more.poisoned(), more.expired(), more.discarded(), more.crashPoisoned());
  }
}
