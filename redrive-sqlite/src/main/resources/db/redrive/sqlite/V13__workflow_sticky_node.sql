-- Sticky turn leasing (docs/workflows.md, "History cache"): the node whose history cache holds the
-- instance, set by each commit (NULL from a node without a cache, and at an end). Only that node
-- leases the instance's next turn until its waiting inbox row has been visible for the leasing
-- node's stickyWait; then any node does. A runtime that stops clears its own, by this index, which
-- holds running instances only.
ALTER TABLE redrive_wf_instances ADD COLUMN sticky_node TEXT;
CREATE INDEX redrive_wf_instances_sticky ON redrive_wf_instances (sticky_node)
  WHERE sticky_node IS NOT NULL;
