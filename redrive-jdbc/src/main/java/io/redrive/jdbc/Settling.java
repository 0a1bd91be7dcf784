package io.redrive.jdbc;

import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import io.redrive.store.SettleParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Settling a lease: complete, fail, abandon and release ({@link #settle}), each checked against the
 * token. This class splits a settle call: plain completes go to {@link Completing} (one DELETE),
 * the rest to {@link LockedSettles}. Entered from {@link JdbcStore#settle}, on the connection of
 * the transaction (or, where the dialect runs statements alone, the auto-commit connection) it runs
 * in.
 */
final class Settling {
  private final Completing completing;
  private final LockedSettles locked;

  Settling(
      SqlDialect dialect,
      MessageRows messages,
      HistoryRows history,
      CompletionRows completions,
      DeadLettering deadLettering,
      QueueKinds kinds) {
    this.completing = new Completing(dialect, completions, kinds.unownedMessage());
    this.locked =
        new LockedSettles(
            messages,
            history,
            completing,
            deadLettering,
            new ResultEnds(messages, history, completions),
            new CircuitFailures(dialect.lockRows("q")));
  }

  /**
   * Settles the commands in one transaction (the caller's), one settlement per command in order.
   * The first command naming a message is the one run; later ones are lost as DUPLICATE. Completes
   * go first, in one DELETE ({@link Completing}); the other commands' rows are then locked in one
   * read, in id order, so concurrent calls over overlapping leases cannot deadlock on them, and
   * written a statement per step: one batch of history rows, one batch of rows made ready again;
   * deaths, the rare case, go one by one through dead-lettering.
   *
   * <p>Messages of workflow-owned queues take the locked path whatever the command: the one-DELETE
   * complete leaves them alone, and a complete carrying a result goes there directly. There their
   * queue's {@link QueueEndings} decide whether a handler result (complete, fail) ends the message
   * and whom to tell.
   */
  List<Settlement> settle(Connection c, SettleParams p, Tally tally) throws SQLException {
    List<SettleCommand> commands = p.commands();
    Settlement[] out = new Settlement[commands.size()];
    Set<String> named = new HashSet<>();
    List<Integer> completeAt = new ArrayList<>();
    List<Integer> otherAt = new ArrayList<>();
    for (int i = 0; i < commands.size(); i++) {
      SettleCommand command = commands.get(i);
      if (!named.add(command.messageId())) {
        out[i] = Settlement.lost(command, Settlement.Lost.DUPLICATE);
      } else if (command instanceof SettleCommand.Complete complete && complete.result() == null) {
        completeAt.add(i);
      } else {
        otherAt.add(i);
      }
    }
    if (!completeAt.isEmpty()) {
      List<SettleCommand.Complete> completes = new ArrayList<>(completeAt.size());
      for (int i : completeAt) {
        completes.add((SettleCommand.Complete) commands.get(i));
      }
      List<Settlement> done =
          completing.completeAll(
              c, completes, p.now(), p.completionWindow(), p.completedRetention(), tally);
      for (int k = 0; k < completeAt.size(); k++) {
        Settlement s = done.get(k);
        if (s.lost() == Settlement.Lost.NOT_CURRENT) {
          // The message is there but the DELETE left it: a lease no longer current, or a
          // workflow-owned queue's message, which the locked path ends with its result.
          otherAt.add(completeAt.get(k));
        } else {
          out[completeAt.get(k)] = s;
        }
      }
    }
    if (!otherAt.isEmpty()) {
      otherAt.sort(null);
      if (c.getAutoCommit()) {
        // The one-statement path (Transactions.writeAlone) met commands its DELETE did not take
        // (an activity message, a lease no longer current): they lock rows and write several
        // statements, so they run in a transaction of their own and end whole or not at all.
        c.setAutoCommit(false);
        try {
          Tally own = Tally.of(); // counted once this transaction committed
          locked.settle(c, commands, otherAt, p, out, own);
          c.commit();
          tally.addAll(own);
        } catch (SQLException | RuntimeException e) {
          try {
            c.rollback();
          } catch (SQLException suppressed) {
            e.addSuppressed(suppressed);
          }
          throw e;
        } finally {
          c.setAutoCommit(true);
        }
      } else {
        locked.settle(c, commands, otherAt, p, out, tally);
      }
    }
    List<Settlement> result = Arrays.asList(out);
    if (p.allOrNothing()) {
      result.stream()
          .filter(s -> !s.settled())
          .min(Comparator.comparing(s -> s.command().messageId()))
          .ifPresent(Settlement::orThrow); // throws, and the transaction rolls back
    }
    return result;
  }
}
