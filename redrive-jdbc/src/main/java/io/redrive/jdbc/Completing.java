package io.redrive.jdbc;

import io.redrive.lease.LeaseToken;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettleResult;
import io.redrive.lease.Settlement;
import io.redrive.message.MessageState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The completes of a settle call: one DELETE for every (id, current token) pair, with no locking
 * read before it; history rows exist only for messages that failed or were released before, and go
 * with them. On PostgreSQL that is one statement and one round trip for the whole batch, the
 * completion records included; SQLite runs cached one-row statements (no round trips in process). A
 * token that deleted nothing is answered as the completion this very lease already made (within the
 * completion window), else as lost: NOT_CURRENT while its message exists, NOT_FOUND when it does
 * not.
 */
final class Completing {
  /** A lease whose message passed its deadline is lost; one parameter: now in epoch millis. */
  private static final String NOT_PAST_DEADLINE = "(expire_at IS NULL OR expire_at > ?)";

  private final SqlDialect dialect;
  private final CompletionRows completions;
  private final CompletedStories stories;

  /**
   * A condition that holds for a message of a queue nobody owns ({@link
   * QueueKinds#unownedMessage}): an owned queue's message is ended by the locked path, since its
   * owner must be told.
   */
  private final String unowned;

  Completing(SqlDialect dialect, CompletionRows completions, String unowned) {
    this.dialect = dialect;
    this.completions = completions;
    this.stories = new CompletedStories(completions);
    this.unowned = unowned;
  }

  /** One settlement per command of {@code commands} (none of them naming the same message). */
  List<Settlement> completeAll(
      Connection c,
      List<SettleCommand.Complete> commands,
      Instant at,
      Duration window,
      Duration retention,
      Tally tally)
      throws SQLException {
    List<String> ids = new ArrayList<>(commands.size());
    List<String> nonces = new ArrayList<>(commands.size());
    for (SettleCommand.Complete command : commands) {
      ids.add(command.token().messageId());
      nonces.add(command.token().nonce());
    }
    long now = at.toEpochMilli();
    Map<String, CompletionRows.Completion> done;
    if (dialect.batchesRowByRow()) {
      // Reading a column costs SQLite's driver a native call: the whole row is read back only
      // when some queue (or the engine's default) keeps completed messages.
      boolean whole = CompletedStories.keepMillis(null, retention) > 0 || stories.anyQueueKeeps(c);
      List<CompletedStories.Story> deleted = deleteRowByRow(c, ids, nonces, now, whole);
      done = new HashMap<>();
      for (CompletedStories.Story story : deleted) {
        done.put(story.id(), story.completion(now));
      }
      if (!deleted.isEmpty()) {
        stories.record(c, deleted, now, window, retention, whole);
      }
    } else {
      done = deleteInOneStatement(c, ids, nonces, now, window, retention);
    }
    for (CompletionRows.Completion row : done.values()) {
      tally.completed(row.queue());
    }
    List<SettleCommand.Complete> missed =
        commands.stream().filter(m -> !done.containsKey(m.messageId())).toList();
    Map<String, Settlement> answered = missed.isEmpty() ? Map.of() : missed(c, missed, at, window);
    List<Settlement> out = new ArrayList<>(commands.size());
    for (SettleCommand.Complete command : commands) {
      CompletionRows.Completion row = done.get(command.messageId());
      out.add(
          row != null
              ? Settlement.settled(command, completed(row))
              : answered.get(command.messageId()));
    }
    return out;
  }

  /** Completes that deleted nothing: repeated, or lost as NOT_CURRENT or NOT_FOUND. */
  private Map<String, Settlement> missed(
      Connection c, List<SettleCommand.Complete> missed, Instant now, Duration window)
      throws SQLException {
    Set<String> present = existing(c, missed.stream().map(SettleCommand::messageId).toList());
    Map<String, Settlement> out = new HashMap<>();
    List<SettleCommand.Complete> gone = new ArrayList<>();
    for (SettleCommand.Complete m : missed) {
      if (present.contains(m.messageId())) {
        out.put(m.messageId(), Settlement.lost(m, Settlement.Lost.NOT_CURRENT));
      } else {
        gone.add(m);
      }
    }
    Map<String, SettleResult> repeated =
        CompletionRows.remembers(window) && !gone.isEmpty()
            ? repeated(c, gone.stream().map(SettleCommand::token).toList(), now, window)
            : Map.of();
    for (SettleCommand.Complete m : gone) {
      SettleResult again = repeated.get(m.messageId());
      out.put(
          m.messageId(),
          again != null
              ? Settlement.settled(m, again)
              : Settlement.lost(m, Settlement.Lost.NOT_FOUND));
    }
    return out;
  }

  private Set<String> existing(Connection c, List<String> ids) throws SQLException {
    Set<String> out = new HashSet<>();
    try (PreparedStatement ps =
        c.prepareStatement("SELECT id FROM redrive_messages WHERE id " + dialect.in(ids.size()))) {
      dialect.bindIn(ps, 1, ids);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  /**
   * The tokens among {@code tokens} whose message this very lease completed within the window:
   * answered as completed again ({@code repeated}), so a worker that never got the first answer
   * (COMMIT_UNKNOWN, a cut connection) learns its work is done.
   */
  private Map<String, SettleResult> repeated(
      Connection c, List<LeaseToken> tokens, Instant now, Duration window) throws SQLException {
    Map<String, CompletionRows.Completion> found =
        completions.find(
            c,
            tokens.stream().map(LeaseToken::messageId).distinct().toList(),
            now.minus(window).toEpochMilli());
    Map<String, SettleResult> out = new HashMap<>();
    for (LeaseToken t : tokens) {
      CompletionRows.Completion done = found.get(t.messageId());
      if (done != null && done.leaseToken().equals(t.nonce())) {
        out.put(
            t.messageId(),
            new SettleResult(
                t.messageId(),
                MessageState.COMPLETED,
                null,
                null,
                null,
                false,
                done.queue(),
                done.leasedAt() == null ? null : Instant.ofEpochMilli(done.leasedAt()),
                true));
      }
    }
    return out;
  }

  /**
   * One round trip for the whole batch: the rows are deleted and {@link CompletedStories} writes
   * what they leave (history dropped or kept, completion records), all in one statement of
   * data-modifying common table expressions, which PostgreSQL runs on one snapshot.
   */
  private Map<String, CompletionRows.Completion> deleteInOneStatement(
      Connection c,
      List<String> ids,
      List<String> nonces,
      long now,
      Duration window,
      Duration retention)
      throws SQLException {
    String sql =
        "WITH done AS (DELETE FROM redrive_messages WHERE state = 'LEASED' AND "
            + NOT_PAST_DEADLINE
            + " AND "
            + unowned
            + " AND "
            + dialect.tokensMatch(ids.size())
            + " RETURNING "
            + CompletedStories.RETURNED
            + ")"
            + CompletedStories.afterDone(CompletionRows.remembers(window))
            + " SELECT id, queue, leased_at, lease_token, dedupe_key FROM done";
    Map<String, CompletionRows.Completion> done = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, now);
      int next = dialect.bindTokensMatch(ps, 2, ids, nonces);
      CompletedStories.bindAfterDone(ps, next, now, window, retention);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String id = rs.getString(1);
          done.put(
              id,
              new CompletionRows.Completion(
                  id, rs.getString(2), rs.getString(4), rs.getString(5), rs.getLong(3), now));
        }
      }
    }
    return done;
  }

  /**
   * SQLite runs its cached one-row statement per row (in-process, that beats a wide statement);
   * {@code whole} reads back everything a kept story needs, else only what the window's record
   * does.
   */
  private List<CompletedStories.Story> deleteRowByRow(
      Connection c, List<String> ids, List<String> nonces, long now, boolean whole)
      throws SQLException {
    List<CompletedStories.Story> done = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_messages WHERE id = ? AND lease_token = ? AND state = 'LEASED'"
                + " AND "
                + NOT_PAST_DEADLINE
                + " AND "
                + unowned
                + " RETURNING "
                + (whole ? CompletedStories.RETURNED : "queue, leased_at, dedupe_key"))) {
      for (int r = 0; r < ids.size(); r++) {
        ps.setString(1, ids.get(r));
        ps.setString(2, nonces.get(r));
        ps.setLong(3, now);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            done.add(
                whole
                    ? CompletedStories.Story.map(rs)
                    : CompletedStories.Story.brief(ids.get(r), nonces.get(r), rs));
          }
        }
      }
    }
    return done;
  }

  private static SettleResult completed(CompletionRows.Completion r) {
    return new SettleResult(
        r.messageId(),
        MessageState.COMPLETED,
        null,
        null,
        null,
        false,
        r.queue(),
        Instant.ofEpochMilli(r.leasedAt()));
  }
}
