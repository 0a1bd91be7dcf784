package io.redrive.jdbc;

import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettledThenLeased;
import io.redrive.lease.Settlement;
import io.redrive.store.LeaseParams;
import io.redrive.store.SettleParams;
import java.util.List;

/**
 * How a settle call runs in transactions: plain completions, where the dialect runs single
 * statements committed alone, as one DELETE statement (see {@link Completing}) that also counts
 * them, then reads for the tokens it missed; everything else in one counted write transaction
 * ({@link Settling#settle}); a settle followed by a lease in one ({@link #settleThenLease}).
 * Thread-safe; entered from {@link JdbcStore#settle}.
 */
final class SettleTransactions {
  private final CountedWrites counted;
  private final Settling settling;
  private final Leasing leasing;
  private final boolean statementsAlone;

  SettleTransactions(CountedWrites counted, Settling settling, Leasing leasing) {
    this.counted = counted;
    this.settling = settling;
    this.leasing = leasing;
    this.statementsAlone = leasing.leasesAlone();
  }

  /**
   * Settles, then leases, in one counted write transaction: one commit where a worker's batch would
   * otherwise pay two. The settle's row locks are held while the lease selects, which skips locked
   * rows, so the two cannot wait on each other.
   */
  SettledThenLeased settleThenLease(SettleParams settle, LeaseParams lease) {
    return counted.write(
        "settle " + settle.commands().size() + " and lease from " + lease.queue(),
        settle.now(),
        (c, tally) -> {
          List<Settlement> settled = settling.settle(c, settle, tally);
          return new SettledThenLeased(settled, leasing.lease(c, lease, tally));
        });
  }

  List<Settlement> settle(SettleParams p) {
    String what =
        p.commands().size() == 1
            ? "settle " + p.commands().get(0).messageId()
            : "settle " + p.commands().size() + " messages";
    if (statementsAlone
        && !p.allOrNothing()
        && p.commands().stream()
            .allMatch(
                command ->
                    command instanceof SettleCommand.Complete complete
                        && complete.result() == null)) {
      // An activity's completion carries a result and ends its activity in several statements, so
      // it takes a transaction (below); a plain complete of an activity message, which the DELETE
      // leaves, is ended in a transaction of its own by Settling, which counts it there.
      return counted.writeAlone(what, p.now(), (c, tally) -> settling.settle(c, p, tally));
    }
    return counted.write(what, p.now(), (c, tally) -> settling.settle(c, p, tally));
  }
}
