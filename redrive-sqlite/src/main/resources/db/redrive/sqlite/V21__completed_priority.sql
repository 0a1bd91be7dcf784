-- A completed message its queue keeps (redrive_completions with kept_until) keeps its priority and
-- limit key too, so its page and JSON show what it ran with. Records written before this version
-- read back priority 0 and no limit key. Its unique key is not kept: a message holds one only while
-- waiting, and a completed message waits no more.
ALTER TABLE redrive_completions ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
ALTER TABLE redrive_completions ADD COLUMN limit_key TEXT;
