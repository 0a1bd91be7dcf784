package io.redrive.jdbc;

import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureRecord;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettleResult;
import io.redrive.lease.Settlement;
import io.redrive.message.HistoryEntry;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.store.SettleParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The settles that lock their rows ({@link Settling}): fails, abandons, releases, and the completes
 * the one DELETE of {@link Completing} did not take. The rows are locked in one read, in id order,
 * so concurrent calls over overlapping leases cannot deadlock on them, then written a statement per
 * step: one batch of history rows, one batch of rows made ready again; deaths, the rare case, go
 * one by one through dead-lettering, and a handler result that ends its message through {@link
 * ResultEnds}. Runs in the caller's transaction.
 */
final class LockedSettles {
  private final MessageRows messages;
  private final HistoryRows history;
  private final Completing completing;
  private final DeadLettering deadLettering;
  private final ResultEnds ends;
  private final CircuitFailures circuits;

  LockedSettles(
      MessageRows messages,
      HistoryRows history,
      Completing completing,
      DeadLettering deadLettering,
      ResultEnds ends,
      CircuitFailures circuits) {
    this.circuits = circuits;
    this.messages = messages;
    this.history = history;
    this.completing = completing;
    this.deadLettering = deadLettering;
    this.ends = ends;
  }

  /**
   * Settles {@code commands} at the indexes {@code at} (ascending), writing each one's settlement
   * into {@code out}; counts in {@code tally} what failed, died and completed.
   */
  void settle(
      Connection c,
      List<SettleCommand> commands,
      List<Integer> at,
      SettleParams p,
      Settlement[] out,
      Tally tally)
      throws SQLException {
    Instant now = p.now();
    Map<String, MessageRows.Locked> locked =
        messages.lockAll(c, at.stream().map(i -> commands.get(i).messageId()).sorted().toList());
    List<Map.Entry<String, HistoryEntry>> entries = new ArrayList<>();
    List<MessageRows.ReadyAgain> readyAgain = new ArrayList<>();
    List<Integer> deaths = new ArrayList<>();
    // The failure that kills a message is its cause: no read of its history needed.
    Map<String, FailureRecord> causes = new java.util.HashMap<>();
    List<Integer> resultEnds = new ArrayList<>();
    List<MessageRows.Locked> holds = new ArrayList<>();
    Map<Integer, CircuitFailures.Counted> counted = circuits.decide(c, commands, at, locked, now);
    for (int i : at) {
      SettleCommand command = commands.get(i);
      MessageRows.Locked l = locked.get(command.messageId());
      if (l == null) {
        out[i] = Settlement.lost(command, Settlement.Lost.NOT_FOUND);
        continue;
      }
      if (!MessageRows.holds(l.row(), command.token(), now)) {
        out[i] = Settlement.lost(command, Settlement.Lost.NOT_CURRENT);
        continue;
      }
      MessageRow row = l.row();
      if (command instanceof SettleCommand.Complete complete) {
        if (l.endings().handlerResultEnds()) {
          resultEnds.add(i);
        } else {
          // A plain queue keeps no result: the complete is an ordinary one.
          out[i] =
              completing
                  .completeAll(
                      c,
                      List.of(new SettleCommand.Complete(complete.token())),
                      now,
                      p.completionWindow(),
                      p.completedRetention(),
                      tally)
                  .get(0);
        }
      } else if (command instanceof SettleCommand.Fail f
          && counted.containsKey(i)
          && counted.get(i).failure().refund()) {
        // Against an open circuit: not the message's fault, so the attempt does not count.
        CircuitFailures.Counted held = counted.get(i);
        entries.add(
            Map.entry(
                row.id(),
                DeliveryEntries.of(
                    row,
                    Outcome.ABANDONED,
                    now,
                    null,
                    "held: circuit " + held.dependency() + " open (attempt refunded)")));
        tally.failed(row.queue());
        readyAgain.add(
            new MessageRows.ReadyAgain(
                row.id(),
                held.holdUntil().toEpochMilli(),
                Math.max(0, row.attempts() - 1),
                f.progress()));
        out[i] = Settlement.settled(f, ready(row, held.holdUntil(), now));
      } else if (command instanceof SettleCommand.Fail f) {
        DeliveryRules.FailVerdict verdict =
            l.endings()
                .onFailure(
                    l.policy(), row.attempts(), f.reason(), f.retryable(), f.retryAfter(), now);
        HistoryEntry failed = DeliveryEntries.failed(row, l.policy(), f, verdict, now);
        entries.add(Map.entry(row.id(), failed));
        tally.failed(row.queue());
        if (l.endings().handlerResultEnds()) {
          resultEnds.add(i);
        } else if (verdict.retry()) {
          readyAgain.add(
              new MessageRows.ReadyAgain(
                  row.id(), verdict.visibleAt().toEpochMilli(), row.attempts(), f.progress()));
          out[i] = Settlement.settled(f, ready(row, verdict.visibleAt(), now));
        } else {
          deaths.add(i);
          causes.put(row.id(), failed.failure());
        }
      } else if (command instanceof SettleCommand.Abandon a) {
        entries.add(Map.entry(row.id(), DeliveryEntries.abandoned(row, l.policy(), a, now)));
        if (a.reason() != null) {
          tally.failed(row.queue()); // a failure record: the attempt failed (unregistered type)
        }
        if (a.hold()) {
          holds.add(l);
        }
        int attempts = a.refund() ? Math.max(0, row.attempts() - 1) : row.attempts();
        Instant visibleAt = now.plus(a.delay());
        readyAgain.add(
            new MessageRows.ReadyAgain(row.id(), visibleAt.toEpochMilli(), attempts, 0L));
        out[i] = Settlement.settled(a, ready(row, visibleAt, now));
      } else {
        entries.add(
            Map.entry(
                row.id(),
                DeliveryEntries.of(
                    row, Outcome.RELEASED, now, null, "released (attempt refunded)")));
        readyAgain.add(
            new MessageRows.ReadyAgain(
                row.id(), now.toEpochMilli(), Math.max(0, row.attempts() - 1), 0L));
        out[i] = Settlement.settled(command, ready(row, now, now));
      }
    }
    if (!entries.isEmpty()) {
      history.insertAll(c, entries);
    }
    if (!readyAgain.isEmpty()) {
      messages.makeReadyAll(c, readyAgain);
    }
    if (!holds.isEmpty()) {
      SlowDowns.hold(c, holds, commands, now);
    }
    for (int i : deaths) {
      SettleCommand.Fail f = (SettleCommand.Fail) commands.get(i);
      MessageRows.Locked l = locked.get(f.messageId());
      messages.setProgress(c, l.row().id(), f.progress());
      tally.dead(l.row().queue());
      out[i] =
          Settlement.settled(
              f,
              deadLettering.kill(
                  c,
                  l.row().withProgress(f.progress()),
                  l.policy(),
                  l.endings(),
                  f.reason(),
                  causes.get(f.messageId()),
                  now));
    }
    for (int i : resultEnds) {
      out[i] = ends.end(c, commands.get(i), locked.get(commands.get(i).messageId()), p);
      tally.add(
          out[i].result().queue(),
          out[i].result().state() == MessageState.COMPLETED ? Tally.COMPLETED : Tally.DEAD,
          1);
    }
  }

  private static SettleResult ready(MessageRow row, Instant visibleAt, Instant now) {
    MessageState state = visibleAt.isAfter(now) ? MessageState.SCHEDULED : MessageState.READY;
    return new SettleResult(
        row.id(), state, visibleAt, null, null, false, row.queue(), DeliveryEntries.leasedAt(row));
  }
}
