-- Unique and debounced messages (docs/engine.md, "Unique and debounced messages"). A message
-- enqueued with a unique key holds it from its enqueue until its first lease; the partial unique
-- index makes a second enqueue with the key meet the holder in the enqueue's own transaction. The
-- lease never touches the column: an enqueue that meets a holder no longer waiting (state not
-- READY, or attempts above 0) clears the holder's key and inserts, and every path that puts a
-- message back to READY with its attempts at 0 (release, refund, manual retry, redrive) clears it.
ALTER TABLE redrive_messages ADD COLUMN unique_key TEXT;
CREATE UNIQUE INDEX redrive_messages_unique ON redrive_messages (queue, unique_key)
  WHERE unique_key IS NOT NULL;
