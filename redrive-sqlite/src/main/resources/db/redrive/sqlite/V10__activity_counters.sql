-- Per-minute activity of each queue (docs/engine.md, "Activity counters"). Minutes are the store
-- clock's epoch minutes. SQLite has one writer, so every transaction writes slot 0; the column is
-- kept so both stores share their statements.
--
-- redrive_activity: what happened; the transaction that does the work adds its counts here as its
-- last statement, one upsert per (queue, minute, slot). Reads sum over the slots.
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
CREATE INDEX redrive_activity_minute ON redrive_activity (minute);

-- redrive_depth: how many messages each queue held, by state, once a minute; the first
-- maintenance sweep of a minute writes every queue's row, later ones write nothing.
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
