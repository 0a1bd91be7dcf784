-- Crash evidence (docs/engine.md, "Crash evidence"): each engine process that leases keeps one row
-- here, written on a timer (every 5 s), never per lease. alive_since is when its current span of
-- continuous life began (a beat that finds its previous one stale starts a new span), last_seen its
-- latest beat, both epoch milliseconds. A lease expiry on a queue with a crash-loop breaker counts
-- as a worker crash only when some node was alive across the lease's window.
CREATE TABLE redrive_engine_nodes (
  node_id     TEXT PRIMARY KEY,
  alive_since BIGINT NOT NULL,
  last_seen   BIGINT NOT NULL
);

-- Redrive that restores a stream's order (docs/engine.md, "Redrive and stream order"): a
-- dead-letter copy remembers the seq of the first message of its story (its place in its stream),
-- and a redrive renumbering a stream keeps each row's first place here. NULL: the row's own seq.
ALTER TABLE redrive_messages ADD COLUMN origin_seq INTEGER;
