package io.redrive.jdbc;

import io.redrive.deadletter.ImportResult;
import io.redrive.error.StoreException;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.message.EnqueueResult;
import io.redrive.message.NewMessage;
import io.redrive.store.EnqueueParams;
import io.redrive.store.ImportParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Putting messages into queues: enqueue (with dedupe keys) and import (keyed by source id). */
final class Producing {
  private final SqlDialect dialect;
  private final QueueRows queues;
  private final MessageRows messages;
  private final HistoryRows history;
  private final CompletionRows completions;
  private final QueueKinds kinds;
  private final UniqueKeys uniqueKeys;
  private final Importing importing;

  Producing(
      SqlDialect dialect,
      QueueRows queues,
      MessageRows messages,
      HistoryRows history,
      CompletionRows completions,
      QueueKinds kinds) {
    this.dialect = dialect;
    this.queues = queues;
    this.messages = messages;
    this.history = history;
    this.completions = completions;
    this.kinds = kinds;
    this.uniqueKeys = new UniqueKeys(dialect, messages, history);
    this.importing = new Importing(queues, messages, history, kinds);
  }

  /**
   * @param callerTransaction the caller owns the transaction and its commit, so other nodes must be
   *     told inside it; otherwise the store tells them after committing
   */
  List<EnqueueResult> enqueue(
      Connection c, EnqueueParams params, boolean callerTransaction, Tally tally)
      throws SQLException {
    return enqueue(c, params, callerTransaction, false, tally);
  }

  /**
   * Enqueues the messages of an owner of queues (a workflow turn's activity messages): into owned
   * queues too, which {@link #enqueue(Connection, EnqueueParams, boolean, Tally)} refuses. The
   * store tells other nodes after committing.
   */
  List<EnqueueResult> enqueueByOwner(Connection c, EnqueueParams params, Tally tally)
      throws SQLException {
    return enqueue(c, params, false, true, tally);
  }

  /**
   * True when this enqueue may commit as its insert ends ({@link SqlDialect#singleStatementWrites};
   * docs/design-decisions.md §21): its insert is its only write when it names one queue, whose
   * check the insert joins, and no dedupe key, which could make it delete a row it inserted or
   * insert again.
   */
  boolean writesOneStatement(EnqueueParams params) {
    if (!dialect.singleStatementWrites() || params.messages().isEmpty()) {
      return false;
    }
    String queue = params.messages().get(0).message().queue();
    for (EnqueueParams.Entry e : params.messages()) {
      if (e.message().dedupeKey() != null
          || e.message().uniqueKey() != null
          || !e.message().queue().equals(queue)) {
        return false;
      }
    }
    return true;
  }

  /** Counts in {@code tally} each message that went in (not the duplicates). */
  private List<EnqueueResult> enqueue(
      Connection c, EnqueueParams params, boolean callerTransaction, boolean byOwner, Tally tally)
      throws SQLException {
    Set<String> queueNames = new LinkedHashSet<>();
    for (EnqueueParams.Entry e : params.messages()) {
      queueNames.add(e.message().queue());
    }
    if (queueNames.size() > 1) {
      // Checked before anything is written: a batch naming a queue that does not exist changes
      // nothing. A batch of one queue needs no such read (see below).
      for (String queue : queueNames) {
        requireOpen(c, queue, byOwner);
      }
    }
    long now = params.now().toEpochMilli();
    List<MessageRows.NewRow> rows = new ArrayList<>(params.messages().size());
    for (EnqueueParams.Entry e : params.messages()) {
      NewMessage m = e.message();
      rows.add(
          new MessageRows.NewRow(
              e.id(),
              m.queue(),
              m.type(),
              m.payload(),
              Json.headers(m.headers()),
              m.stream(),
              "READY",
              0,
              0L,
              now,
              now + (m.debounce() == null ? m.delay() : m.debounce()).toMillis(),
              // Null: the queue's expire_after, joined in by the insert.
              m.expireAfter() == null ? null : now + m.expireAfter().toMillis(),
              null,
              null,
              null,
              null,
              m.dedupeKey(),
              // Null: the queue's default priority and its head start, joined in by the insert.
              m.priority(),
              null,
              m.limitKey(),
              m.uniqueKey()));
    }
    KeyLocks.lock(dialect, c, rows);
    List<EnqueueResult> out =
        UniqueKeys.any(params.messages())
            ? withUniqueKeys(c, params, rows, queueNames, byOwner, tally)
            : insertPlain(c, params, rows, queueNames.size() == 1, byOwner, tally);
    if (callerTransaction) {
      // Inside the caller's transaction, so wake-ups go out on its commit, never on a rollback.
      for (String queue : queueNames) {
        dialect.afterMessagesReady(c, queue);
      }
    }
    return out;
  }

  /**
   * A batch with unique keys, in its order: each run of messages without one goes in as one insert,
   * each message with one through {@link UniqueKeys} (so a key repeated in the batch meets its
   * earlier message: kept, or replaced by the later one). The queues are read first, as the unique
   * path cannot tell a missing queue from a held key.
   */
  private List<EnqueueResult> withUniqueKeys(
      Connection c,
      EnqueueParams params,
      List<MessageRows.NewRow> rows,
      Set<String> queueNames,
      boolean byOwner,
      Tally tally)
      throws SQLException {
    if (queueNames.size() == 1) {
      requireOpen(c, rows.get(0).queue(), byOwner);
    }
    List<EnqueueResult> out = new ArrayList<>(rows.size());
    int from = 0;
    for (int i = 0; i <= rows.size(); i++) {
      if (i < rows.size() && rows.get(i).uniqueKey() == null) {
        continue;
      }
      if (from < i) {
        out.addAll(insertPlain(c, params, rows.subList(from, i), false, byOwner, tally));
      }
      if (i < rows.size()) {
        EnqueueResult r =
            uniqueKeys.enqueue(
                c, rows.get(i), params.messages().get(i).message(), params.now(), byOwner);
        if (r.created()) {
          tally.enqueued(rows.get(i).queue());
        }
        out.add(r);
      }
      from = i + 1;
    }
    return out;
  }

  /**
   * Inserts rows without unique keys, answering dedupe hits.
   *
   * @param unread whether the rows' one queue has not been read yet (it is read only when nothing
   *     went in)
   */
  private List<EnqueueResult> insertPlain(
      Connection c,
      EnqueueParams params,
      List<MessageRows.NewRow> rows,
      boolean unread,
      boolean byOwner,
      Tally tally)
      throws SQLException {
    List<EnqueueResult> out = new ArrayList<>(rows.size());
    boolean[] inserted = messages.insertAllIfAbsent(c, rows, true, byOwner);
    if (unread && !any(inserted)) {
      // The insert joins each row to its queue, so nothing went in when the queue is missing (or
      // is owned and refuses this producer); only now (or when every row was a duplicate) is it
      // read.
      requireOpen(c, rows.get(0).queue(), byOwner);
    }
    Map<String, String> completed = completedDuplicates(c, params, rows, inserted);
    for (int i = 0; i < rows.size(); i++) {
      MessageRows.NewRow row = rows.get(i);
      String earlier = row.dedupeKey() == null ? null : completed.get(keyOf(row));
      if (inserted[i] && earlier == null) {
        out.add(new EnqueueResult(row.id(), false));
      } else if (inserted[i]) {
        out.add(new EnqueueResult(earlier, true));
      } else if (row.dedupeKey() != null) {
        out.add(keyTaken(c, row, params, byOwner));
      } else {
        throw collision(row.id());
      }
      if (!out.get(i).duplicate()) {
        tally.enqueued(row.queue());
      }
    }
    return out;
  }

  /**
   * The messages completed within the window whose dedupe key a row of this enqueue carries, by
   * {@link #keyOf}; the rows just inserted with such a key are deleted again, as duplicates of the
   * completed message. Looked up after the insert: a completion that commits while this enqueue
   * waits on the message's unique key is then visible here, so no retry slips through between the
   * two.
   */
  private Map<String, String> completedDuplicates(
      Connection c, EnqueueParams params, List<MessageRows.NewRow> rows, boolean[] inserted)
      throws SQLException {
    Duration window = params.completionWindow();
    Map<String, String> found = new HashMap<>();
    if (!CompletionRows.remembers(window)) {
      return found;
    }
    Map<String, Set<String>> keysByQueue = new HashMap<>();
    for (MessageRows.NewRow row : rows) {
      if (row.dedupeKey() != null) {
        keysByQueue.computeIfAbsent(row.queue(), q -> new HashSet<>()).add(row.dedupeKey());
      }
    }
    long since = params.now().minus(window).toEpochMilli();
    for (Map.Entry<String, Set<String>> e : keysByQueue.entrySet()) {
      completions
          .idsByDedupeKey(c, e.getKey(), e.getValue(), since)
          .forEach((key, id) -> found.put(e.getKey() + '\u0000' + key, id));
    }
    List<String> undo = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (inserted[i] && rows.get(i).dedupeKey() != null && found.containsKey(keyOf(rows.get(i)))) {
        undo.add(rows.get(i).id());
      }
    }
    if (!undo.isEmpty()) {
      messages.deleteAll(c, undo);
    }
    return found;
  }

  /**
   * The answer for a row whose insert met a message holding its dedupe key. That message may have
   * left since (completed, dropped, expired by another transaction that committed in between): then
   * the completion is looked up afresh, and if there is none the row is inserted after all.
   */
  private EnqueueResult keyTaken(
      Connection c, MessageRows.NewRow row, EnqueueParams params, boolean byOwner)
      throws SQLException {
    for (int attempt = 0; attempt < 3; attempt++) {
      Optional<String> live = messages.idByDedupeKey(c, row.queue(), row.dedupeKey());
      if (live.isPresent()) {
        return new EnqueueResult(live.get(), true);
      }
      Duration window = params.completionWindow();
      if (CompletionRows.remembers(window)) {
        String completed =
            completions
                .idsByDedupeKey(
                    c,
                    row.queue(),
                    List.of(row.dedupeKey()),
                    params.now().minus(window).toEpochMilli())
                .get(row.dedupeKey());
        if (completed != null) {
          return new EnqueueResult(completed, true);
        }
      }
      if (messages.insertAllIfAbsent(c, List.of(row), true, byOwner)[0]) {
        return new EnqueueResult(row.id(), false);
      }
    }
    throw collision(row.id());
  }

  /**
   * The queue, which must exist and take messages from this producer: an owned queue takes only its
   * owner's ({@link QueueEndings#checkProducer}).
   */
  private void requireOpen(Connection c, String queue, boolean byOwner) throws SQLException {
    kinds.endings(queues.require(c, queue, false)).checkProducer(queue, byOwner);
  }

  private static boolean any(boolean[] values) {
    for (boolean v : values) {
      if (v) {
        return true;
      }
    }
    return false;
  }

  /** Queue and dedupe key in one string; NUL never occurs in either (validation refuses it). */
  private static String keyOf(MessageRows.NewRow row) {
    return row.queue() + '\u0000' + row.dedupeKey();
  }

  ImportResult importMessages(Connection c, ImportParams params) throws SQLException {
    return importing.importMessages(c, params);
  }

  private static StoreException collision(String id) {
    return new StoreException(
        "message id " + id + " collided with an existing row", null, false, null);
  }
}
