-- The per-minute queue counters of V10 get a word of their own: throughput (docs/engine.md,
-- "Throughput counters"), so "activity" means only workflow activities. Same table, same rows;
-- only the names change. SQLite renames the primary key's automatic index with the table; an
-- index of our own cannot be renamed, so it is made again under its new name.
ALTER TABLE redrive_activity RENAME TO redrive_throughput;
DROP INDEX redrive_activity_minute;
CREATE INDEX redrive_throughput_minute ON redrive_throughput (minute);
