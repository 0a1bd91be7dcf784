-- Every message is inserted, updated by its lease and deleted by its completion, so the table
-- sheds dead tuples as fast as messages flow; until vacuum removes them, each lease and settle
-- steps over their index entries (measured: settles 5-10x slower after ~100 k messages). Vacuum
-- after 1 % of the table changed instead of PostgreSQL's 20 %, and let it run ten times faster.
-- How often autovacuum looks at all is the server's autovacuum_naptime (docs/engine.md).
-- A drained queue's table ends in empty pages; truncating them needs an exclusive lock that can
-- hold up leases and settles, and the pages would be refilled at once, so vacuum leaves them.
ALTER TABLE redrive_messages SET (
  vacuum_truncate = false,
  autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0.01,
  autovacuum_analyze_scale_factor = 0.02,
  autovacuum_vacuum_cost_limit = 2000
);
