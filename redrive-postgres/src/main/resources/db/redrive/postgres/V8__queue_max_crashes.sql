-- The crash-loop breaker of a queue: a message whose lease ran out on this many distinct workers is
-- poisoned at that expiry instead of made ready again. 0 (every existing queue) turns it off.
ALTER TABLE redrive_queues ADD COLUMN max_crashes INTEGER NOT NULL DEFAULT 0;
