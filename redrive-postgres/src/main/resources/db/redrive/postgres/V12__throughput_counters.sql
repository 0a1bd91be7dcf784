-- The per-minute queue counters of V11 get a word of their own: throughput (docs/engine.md,
-- "Throughput counters"), so "activity" means only workflow activities. Same table, same rows,
-- same storage settings; only the names change.
ALTER TABLE redrive_activity RENAME TO redrive_throughput;
ALTER TABLE redrive_throughput RENAME CONSTRAINT redrive_activity_pkey TO redrive_throughput_pkey;
ALTER INDEX redrive_activity_minute RENAME TO redrive_throughput_minute;
