-- Queue-age objectives (docs/engine.md, "Objectives"): declared in their own table, so a queue's
-- policy row stays as it was. kind is LATENCY (share of first leases whose wait from enqueue was
-- within bound_ms) or AGE (share of sampled minutes whose oldest ready message was younger than
-- bound_ms); target is that share, 0 < target < 1; window_ms is the compliance window.
CREATE TABLE redrive_objectives (
  name        TEXT PRIMARY KEY,
  queue       TEXT NOT NULL,
  type        TEXT,
  stream      TEXT,
  kind        TEXT NOT NULL,
  target      DOUBLE PRECISION NOT NULL,
  bound_ms    BIGINT NOT NULL,
  window_ms   BIGINT NOT NULL,
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL
);

-- What an objective saw per minute: events within and beyond its bound. Written from each node's
-- memory once a second (LATENCY: counted at lease) or once a minute by the node that records the
-- depth snapshot (AGE); slot as in redrive_throughput, so writers rarely meet on a row.
CREATE TABLE redrive_objective_minutes (
  objective   TEXT NOT NULL,
  minute      BIGINT NOT NULL,
  slot        INTEGER NOT NULL,
  within      BIGINT NOT NULL,
  beyond      BIGINT NOT NULL,
  PRIMARY KEY (objective, minute, slot)
);
