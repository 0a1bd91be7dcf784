-- Completed messages can keep their story (docs/engine.md, "Completed messages"). A queue's
-- completed_retention_ms says how long (0: not at all; NULL: the engine's default). A completion
-- record is then more than the completion window's memory: it keeps what the message was (type,
-- payload, headers, stream, lineage), how it went (attempts, worker, times) and, in
-- redrive_history, every earlier attempt; kept_until says when the sweep deletes it and that
-- history. Records the window alone keeps have kept_until NULL and go by completed_at as before,
-- so an engine of the previous version, which writes no kept_until, keeps working in a rolling
-- deploy.
ALTER TABLE redrive_queues ADD COLUMN completed_retention_ms BIGINT;

ALTER TABLE redrive_completions ADD COLUMN kept_until BIGINT;
ALTER TABLE redrive_completions ADD COLUMN type TEXT;
ALTER TABLE redrive_completions ADD COLUMN attempts INTEGER;
ALTER TABLE redrive_completions ADD COLUMN enqueued_at BIGINT;
ALTER TABLE redrive_completions ADD COLUMN worker TEXT;
ALTER TABLE redrive_completions ADD COLUMN progress BIGINT;
ALTER TABLE redrive_completions ADD COLUMN payload TEXT;
ALTER TABLE redrive_completions ADD COLUMN headers TEXT;
ALTER TABLE redrive_completions ADD COLUMN stream TEXT;
ALTER TABLE redrive_completions ADD COLUMN source_id TEXT;
ALTER TABLE redrive_completions ADD COLUMN source_queue TEXT;
ALTER TABLE redrive_completions ADD COLUMN origin_id TEXT;
ALTER TABLE redrive_completions ADD COLUMN origin_queue TEXT;

-- The window's sweep reads only the records the window alone keeps; kept stories have their own.
DROP INDEX redrive_completions_age;
CREATE INDEX redrive_completions_age ON redrive_completions (completed_at)
  WHERE kept_until IS NULL;
CREATE INDEX redrive_completions_kept ON redrive_completions (kept_until)
  WHERE kept_until IS NOT NULL;
-- A queue's completed messages, newest first, and the kept copies a moved id leads to.
CREATE INDEX redrive_completions_listed ON redrive_completions (queue, completed_at, message_id)
  WHERE kept_until IS NOT NULL;
CREATE INDEX redrive_completions_origin ON redrive_completions (origin_id)
  WHERE origin_id IS NOT NULL;
-- SQLite reads a completed row back whole only when some queue keeps stories; this index holds
-- just those queues, so asking is one index probe however many queues there are.
CREATE INDEX redrive_queues_keeping ON redrive_queues (name)
  WHERE completed_retention_ms > 0;
