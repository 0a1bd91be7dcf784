-- A lease hands the runtime the turn rows written since the instance's last commit (the tries that
-- ended without one); a commit remembers the highest turn row id it has seen.
ALTER TABLE redrive_wf_instances ADD COLUMN turn_rows_seen BIGINT NOT NULL DEFAULT 0;
