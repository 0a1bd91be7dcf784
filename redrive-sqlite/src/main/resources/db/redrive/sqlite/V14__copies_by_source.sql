-- A message's lineage (docs/engine.md, "Lineage"). A message that dies is copied into its
-- dead-letter queue under a new id, and the copy names the id it came from (source_id); a copy
-- redriven and dead again is copied once more, and the id before it is gone. origin_id keeps the
-- first id of the story (the one the enqueue returned) on every dead-letter copy, so any id of the
-- chain finds where the message is now; origin_queue is the queue that id was in. The unique (queue, source_id) index cannot serve a lookup
-- without the queue; these two can, and hold only copies and imports, so ordinary enqueues do not
-- pay for them.
ALTER TABLE redrive_messages ADD COLUMN origin_id TEXT;
ALTER TABLE redrive_messages ADD COLUMN origin_queue TEXT;
CREATE INDEX redrive_messages_origin ON redrive_messages (origin_id)
  WHERE origin_id IS NOT NULL;
CREATE INDEX redrive_messages_source_any ON redrive_messages (source_id)
  WHERE source_id IS NOT NULL;
