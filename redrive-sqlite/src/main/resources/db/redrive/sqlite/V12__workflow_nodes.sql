-- The live workflow nodes (docs/workflows.md, "Nodes"): each runtime writes its row at start and
-- on a heartbeat (what it registers, as JSON the store never reads), deletes it when it stops, and
-- a row whose node stopped publishing counts as gone once expires_at passed (deleted by the next
-- publish of any node). Times are epoch milliseconds like every workflow table.
CREATE TABLE redrive_wf_nodes (
  node_id       TEXT PRIMARY KEY,
  build_id      TEXT,
  registrations TEXT NOT NULL,
  started_at    BIGINT NOT NULL,
  seen_at       BIGINT NOT NULL,
  expires_at    BIGINT NOT NULL
);
