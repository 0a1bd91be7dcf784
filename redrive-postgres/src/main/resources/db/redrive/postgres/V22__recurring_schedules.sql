-- Recurring schedules (docs/engine.md, "Recurring schedules"): one row per schedule. A firing claims
-- the rows whose next_due_at has come (not paused), produces their target in the same transaction
-- (a message with dedupe key schedule:<name>:<due epoch ms>, or a workflow instance with id
-- <name>-<due epoch ms>) and advances next_due_at, so each due time fires once across nodes.
-- spec_kind is CRON (spec: the expression, zone: its time zone) or EVERY (spec: the interval in
-- milliseconds, counted from anchor_at); target is JSON the JDBC layer alone reads. Times are epoch
-- milliseconds; next_due_at is null once a cron names no future time.
CREATE TABLE redrive_schedules (
  name          TEXT PRIMARY KEY,
  spec_kind     TEXT NOT NULL,
  spec          TEXT NOT NULL,
  zone          TEXT,
  anchor_at     BIGINT NOT NULL,
  target        TEXT NOT NULL,
  jitter_ms     BIGINT NOT NULL,
  catch_up      TEXT NOT NULL,
  paused        BOOLEAN NOT NULL,
  next_due_at   BIGINT,
  last_due_at   BIGINT,
  last_fired_at BIGINT,
  skipped       BIGINT NOT NULL,
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL
);

-- The firing's claim and the scheduler's "when is the next one due" read.
CREATE INDEX redrive_schedules_due ON redrive_schedules (next_due_at) WHERE NOT paused;
