package io.redrive.jdbc;

import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureRecord;
import io.redrive.jdbc.owned.EndedMessage;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettleResult;
import io.redrive.lease.Settlement;
import io.redrive.message.HistoryEntry;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.ProgressParams;
import io.redrive.store.RenewParams;
import io.redrive.store.SettleParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Settling a lease: complete, fail, abandon and release ({@link #settle}), renew and progress, each
 * checked against the token.
 */
final class Settling {
  private final MessageRows messages;
  private final HistoryRows history;
  private final Completing completing;
  private final CompletionRows completions;
  private final DeadLettering deadLettering;

  private final ThroughputRows throughput;

  Settling(
      SqlDialect dialect,
      MessageRows messages,
      HistoryRows history,
      CompletionRows completions,
      ThroughputRows throughput,
      DeadLettering deadLettering,
      QueueKinds kinds) {
    this.messages = messages;
    this.history = history;
    this.completing = new Completing(dialect, completions, throughput, kinds.unownedMessage());
    this.throughput = throughput;
    this.completions = completions;
    this.deadLettering = deadLettering;
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
          completing.completeAll(c, completes, p.now(), p.completionWindow(), tally);
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
          Tally own = Tally.of(); // counted in this transaction, not by a statement after it
          settleLocked(c, commands, otherAt, p, out, own);
          throughput.flush(c, own, p.now(), false);
          c.commit();
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
        settleLocked(c, commands, otherAt, p, out, tally);
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

  /**
   * Fails, abandons, releases and the completes the one DELETE did not take: rows locked in one
   * read, then written a statement per step.
   */
  private void settleLocked(
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
                      tally)
                  .get(0);
        }
      } else if (command instanceof SettleCommand.Fail f) {
        DeliveryRules.FailVerdict verdict =
            l.endings()
                .onFailure(
                    l.policy(), row.attempts(), f.reason(), f.retryable(), f.retryAfter(), now);
        HistoryEntry failed = failedDelivery(row, l.policy(), f, verdict, now);
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
        entries.add(Map.entry(row.id(), abandoned(row, l.policy(), a, now)));
        if (a.reason() != null) {
          tally.failed(row.queue()); // a failure record: the attempt failed (unregistered type)
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
                delivery(row, Outcome.RELEASED, now, null, "released (attempt refunded)")));
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
      out[i] = endWithResult(c, commands.get(i), locked.get(commands.get(i).messageId()), p);
      tally.add(
          out[i].result().queue(),
          out[i].result().state() == MessageState.COMPLETED ? Tally.COMPLETED : Tally.DEAD,
          1);
    }
  }

  /**
   * A handler's result ends the message (its queue's endings say so): the message and its story are
   * deleted and the endings are told the result (or the failure, with the story), in this
   * transaction. The queue never retries it.
   */
  private Settlement endWithResult(
      Connection c, SettleCommand command, MessageRows.Locked l, SettleParams p)
      throws SQLException {
    MessageRow row = l.row();
    Instant now = p.now();
    List<HistoryEntry> story = history.read(c, row.id());
    if (command instanceof SettleCommand.Complete complete) {
      // A completion writes no history entry of its own; the instance's story ends with it.
      List<HistoryEntry> told = new java.util.ArrayList<>(story);
      told.add(
          new HistoryEntry(
              row.attempts(),
              io.redrive.message.Outcome.COMPLETED,
              row.leasedBy(),
              leasedAt(row),
              now.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), // as stored times are
              null,
              null));
      l.endings()
          .ended(
              c,
              new EndedMessage(
                  row.id(),
                  row.queue(),
                  row.attempts(),
                  EndedMessage.Ending.COMPLETED,
                  complete.result(),
                  null,
                  () -> told,
                  now));
      history.delete(c, row.id());
      messages.delete(c, row.id());
      if (CompletionRows.remembers(p.completionWindow())) {
        completions.insertAll(
            c,
            List.of(
                new CompletionRows.Completion(
                    row.id(),
                    row.queue(),
                    row.leaseToken(),
                    row.dedupeKey(),
                    row.leasedAt(),
                    now.toEpochMilli())));
      }
      return Settlement.settled(
          command,
          new SettleResult(
              row.id(),
              MessageState.COMPLETED,
              null,
              null,
              null,
              false,
              row.queue(),
              leasedAt(row)));
    }
    SettleCommand.Fail f = (SettleCommand.Fail) command;
    l.endings()
        .ended(
            c,
            new EndedMessage(
                row.id(),
                row.queue(),
                row.attempts(),
                EndedMessage.Ending.FAILED,
                null,
                f.retryAfter(),
                () -> story,
                now));
    history.delete(c, row.id());
    messages.delete(c, row.id());
    return Settlement.settled(
        command,
        new SettleResult(
            row.id(),
            MessageState.DEAD,
            null,
            f.reason(),
            null,
            false,
            row.queue(),
            leasedAt(row)));
  }

  private static HistoryEntry abandoned(
      MessageRow row, QueuePolicy policy, SettleCommand.Abandon a, Instant now) {
    String note =
        (a.note() == null ? "abandoned" : a.note())
            + (a.refund() ? " (attempt refunded)" : "")
            + (a.delay().isZero() ? "" : ", visible again after " + a.delay());
    FailureRecord failure =
        a.reason() == null
            ? null
            : new FailureRecord(
                a.reason(),
                note,
                true,
                row.attempts(),
                policy.maxAttempts(),
                row.leasedBy(),
                now,
                null,
                null);
    return delivery(row, Outcome.ABANDONED, now, failure, note);
  }

  Instant renew(Connection c, RenewParams p) throws SQLException {
    MessageRows.Locked locked = messages.lockLeased(c, p.token(), p.now());
    Duration timeout = p.leaseTimeout() != null ? p.leaseTimeout() : locked.policy().leaseTimeout();
    Instant expiresAt = capAtDeadline(locked.row(), p.now().plus(timeout));
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE redrive_messages SET visible_at = ? WHERE id = ?")) {
      ps.setLong(1, expiresAt.toEpochMilli());
      ps.setString(2, locked.row().id());
      ps.executeUpdate();
    }
    return expiresAt;
  }

  /** A lease never runs past its message's deadline: the sweep takes the message there. */
  static Instant capAtDeadline(MessageRow row, Instant leaseExpiry) {
    if (row.expireAt() != null && row.expireAt() < leaseExpiry.toEpochMilli()) {
      return Instant.ofEpochMilli(row.expireAt());
    }
    return leaseExpiry;
  }

  long recordProgress(Connection c, ProgressParams p) throws SQLException {
    MessageRow row = messages.lockLeased(c, p.token(), p.now()).row();
    messages.setProgress(c, row.id(), p.progress());
    return row.progress() | p.progress();
  }

  private static HistoryEntry failedDelivery(
      MessageRow row,
      QueuePolicy policy,
      SettleCommand.Fail f,
      DeliveryRules.FailVerdict verdict,
      Instant now) {
    return delivery(
        row,
        Outcome.FAILED,
        now,
        new FailureRecord(
            f.reason(),
            f.message(),
            verdict.retryable(),
            row.attempts(),
            policy.maxAttempts(),
            row.leasedBy(),
            now,
            f.stackTrace(),
            null),
        null);
  }

  static HistoryEntry delivery(
      MessageRow row, Outcome outcome, Instant now, FailureRecord failure, String note) {
    return new HistoryEntry(
        row.attempts(),
        outcome,
        row.leasedBy(),
        row.leasedAt() == null ? null : Instant.ofEpochMilli(row.leasedAt()),
        now,
        failure,
        note);
  }

  private static SettleResult ready(MessageRow row, Instant visibleAt, Instant now) {
    MessageState state = visibleAt.isAfter(now) ? MessageState.SCHEDULED : MessageState.READY;
    return new SettleResult(
        row.id(), state, visibleAt, null, null, false, row.queue(), leasedAt(row));
  }

  private static Instant leasedAt(MessageRow row) {
    return row.leasedAt() == null ? null : Instant.ofEpochMilli(row.leasedAt());
  }
}
