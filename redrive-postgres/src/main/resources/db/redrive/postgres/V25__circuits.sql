-- Issue 33, failure handling: a queue backoff's jitter (docs/engine.md, "Backoff jitter").
-- NONE keeps today's exact delays; FULL and EQUAL spread them (the store draws the spread in Java).
ALTER TABLE redrive_queues ADD COLUMN backoff_jitter TEXT NOT NULL DEFAULT 'NONE';
