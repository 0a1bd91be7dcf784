-- Per-minute activity of each queue, for charts that must be right across every node sharing the
-- database (docs/engine.md, "Activity counters"). Minutes are the store clock's epoch minutes.
--
-- redrive_activity: what happened. The transaction that does the work adds its counts here as its
-- last statement, one upsert per (queue, minute, slot). A store transaction picks one of 8 slots
-- at random, so concurrent settles of one queue do not all wait on one row; an enqueue inside an
-- application's transaction writes slot 8 + its backend pid, a row no concurrent transaction
-- shares, since it may hold that row until the application commits. Reads sum over the slots.
CREATE TABLE redrive_activity (
  queue     TEXT    NOT NULL,
  minute    BIGINT  NOT NULL,
  slot      INTEGER NOT NULL,
  enqueued  BIGINT  NOT NULL DEFAULT 0,
  completed BIGINT  NOT NULL DEFAULT 0,
  failed    BIGINT  NOT NULL DEFAULT 0,
  dead      BIGINT  NOT NULL DEFAULT 0,
  PRIMARY KEY (queue, minute, slot)
);
-- The retention sweep and the all-queues read go by minute.
CREATE INDEX redrive_activity_minute ON redrive_activity (minute);

-- redrive_depth: how many messages each queue held, by state, once a minute. The maintenance sweep
-- of whichever node comes first in a minute writes every queue's row; later ones write nothing.
CREATE TABLE redrive_depth (
  queue     TEXT   NOT NULL,
  minute    BIGINT NOT NULL,
  ready     BIGINT NOT NULL,
  scheduled BIGINT NOT NULL,
  leased    BIGINT NOT NULL,
  dead      BIGINT NOT NULL,
  PRIMARY KEY (queue, minute)
);
CREATE INDEX redrive_depth_minute ON redrive_depth (minute);

-- Counter rows are updated many times a minute: leave room on each page for HOT updates.
ALTER TABLE redrive_activity SET (
  fillfactor = 70,
  autovacuum_vacuum_scale_factor = 0.05,
  autovacuum_analyze_scale_factor = 0.05
);
