-- A completed message leaves its queue at once; a completion record remembers it for the
-- engine's completion window (default 5 minutes), so that a worker repeating a complete whose
-- answer it never received is told "completed" rather than "not found", and an enqueue with the
-- completed message's dedupe key is answered as a duplicate of it. The maintenance sweep deletes
-- records older than the window.
CREATE TABLE redrive_completions (
  message_id   TEXT PRIMARY KEY,
  queue        TEXT NOT NULL,
  lease_token  TEXT NOT NULL,
  dedupe_key   TEXT,
  leased_at    BIGINT,
  completed_at BIGINT NOT NULL
);
CREATE INDEX redrive_completions_age ON redrive_completions (completed_at);
CREATE INDEX redrive_completions_dedupe ON redrive_completions (queue, dedupe_key)
  WHERE dedupe_key IS NOT NULL;
