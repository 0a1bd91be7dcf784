-- Live workers (docs/engine.md, "Live workers and unserved types"): one row per queue, type and
-- worker, the time of the worker's latest recorded lease call naming that type; the empty type
-- stands for a lease of every type. Written at most every 10 s per worker, queue and types by each
-- process (never once per lease), read by the unserved-types check and the workers view. Rows more
-- than a day old are deleted when their queue's rows are written. Times are epoch milliseconds.
CREATE TABLE redrive_live_workers (
  queue         TEXT NOT NULL,
  type          TEXT NOT NULL,
  worker        TEXT NOT NULL,
  last_lease_at BIGINT NOT NULL,
  PRIMARY KEY (queue, type, worker)
);
