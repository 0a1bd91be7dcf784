package io.redrive.jdbc;

import io.redrive.deadletter.ImportMessage;
import io.redrive.deadletter.ImportResult;
import io.redrive.error.StoreException;
import io.redrive.message.EnqueueResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.EnqueueParams;
import io.redrive.store.ImportParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Putting messages into queues: enqueue (with dedupe keys) and import (keyed by source id). */
final class Producing {
  private final SqlDialect dialect;
  private final QueueRows queues;
  private final MessageRows messages;
  private final HistoryRows history;

  Producing(SqlDialect dialect, QueueRows queues, MessageRows messages, HistoryRows history) {
    this.dialect = dialect;
    this.queues = queues;
    this.messages = messages;
    this.history = history;
  }

  /**
   * @param callerTransaction the caller owns the transaction and its commit, so other nodes must be
   *     told inside it; otherwise the store tells them after committing
   */
  List<EnqueueResult> enqueue(Connection c, EnqueueParams params, boolean callerTransaction)
      throws SQLException {
    Map<String, QueuePolicy> policies = new HashMap<>();
    List<EnqueueResult> out = new ArrayList<>(params.messages().size());
    long now = params.now().toEpochMilli();
    List<MessageRows.NewRow> rows = new ArrayList<>(params.messages().size());
    for (EnqueueParams.Entry e : params.messages()) {
      NewMessage m = e.message();
      QueuePolicy policy = policies.get(m.queue());
      if (policy == null) {
        policy = queues.require(c, m.queue(), false).policy();
        policies.put(m.queue(), policy);
      }
      Duration expireAfter = m.expireAfter() != null ? m.expireAfter() : policy.expireAfter();
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
              now + m.delay().toMillis(),
              expireAfter == null ? null : now + expireAfter.toMillis(),
              null,
              null,
              null,
              null,
              m.dedupeKey()));
    }
    boolean[] inserted = messages.insertAllIfAbsent(c, rows);
    for (int i = 0; i < rows.size(); i++) {
      MessageRows.NewRow row = rows.get(i);
      if (inserted[i]) {
        out.add(new EnqueueResult(row.id(), false));
      } else if (row.dedupeKey() != null) {
        String existing =
            messages
                .idByDedupeKey(c, row.queue(), row.dedupeKey())
                .orElseThrow(() -> collision(row.id()));
        out.add(new EnqueueResult(existing, true));
      } else {
        throw collision(row.id());
      }
    }
    if (callerTransaction) {
      // Inside the caller's transaction, so wake-ups go out on its commit, never on a rollback.
      for (String queue : policies.keySet()) {
        dialect.afterMessagesReady(c, queue);
      }
    }
    return out;
  }

  ImportResult importMessages(Connection c, ImportParams params) throws SQLException {
    queues.require(c, params.queue(), false);
    Instant now = params.now();
    long t = now.toEpochMilli();
    List<String> imported = new ArrayList<>();
    List<String> duplicates = new ArrayList<>();
    for (ImportMessage m : params.messages()) {
      String id = params.ids().get();
      boolean inserted =
          messages.insertIfAbsent(
              c,
              new MessageRows.NewRow(
                  id,
                  params.queue(),
                  m.type(),
                  m.payload(),
                  Json.headers(m.headers()),
                  m.stream(),
                  m.dead() ? "DEAD" : "READY",
                  0,
                  0L,
                  t,
                  t,
                  null,
                  m.dead() ? "UNKNOWN" : null,
                  m.dead() ? t : null,
                  m.sourceId(),
                  m.sourceQueue(),
                  null));
      if (inserted) {
        history.insert(
            c,
            id,
            new HistoryEntry(
                0,
                Outcome.IMPORTED,
                null,
                null,
                now,
                null,
                "imported from source id "
                    + m.sourceId()
                    + (m.sourceQueue() == null ? "" : " of " + m.sourceQueue())));
        imported.add(id);
      } else {
        duplicates.add(m.sourceId());
      }
    }
    return new ImportResult(imported, duplicates);
  }

  private static StoreException collision(String id) {
    return new StoreException(
        "message id " + id + " collided with an existing row", null, false, null);
  }
}
