-- Flow limits (docs/engine.md, "Flow limits"): a message's limit key, a queue's caps on running
-- messages and rates of leasing, and the token buckets and slow-down holds the limited lease reads
-- and writes under the queue row's lock.
ALTER TABLE redrive_messages ADD COLUMN limit_key TEXT;

-- NULL: no such limit. A rate is rate_*_leases per rate_*_period_ms.
ALTER TABLE redrive_queues ADD COLUMN max_running INTEGER;
ALTER TABLE redrive_queues ADD COLUMN max_running_per_key INTEGER;
ALTER TABLE redrive_queues ADD COLUMN rate_leases INTEGER;
ALTER TABLE redrive_queues ADD COLUMN rate_period_ms BIGINT;
ALTER TABLE redrive_queues ADD COLUMN rate_per_key_leases INTEGER;
ALTER TABLE redrive_queues ADD COLUMN rate_per_key_period_ms BIGINT;
-- Until when (epoch millis) leases of the queue take the limited path: the largest value for a
-- queue with limits, the end of its latest slow-down hold for one without, 0 when neither. The
-- one-statement lease tests only this column, so a queue without limits pays nothing more.
ALTER TABLE redrive_queues ADD COLUMN flow_until BIGINT NOT NULL DEFAULT 0;

-- One token bucket and hold per (queue, limit key); limit_key '' is the queue's own (a limit key
-- is never blank). A bucket that is full and not held says nothing and is deleted by the lease
-- that finds it so, so the table holds only keys leased or held within their last period.
CREATE TABLE redrive_flow_buckets (
  queue TEXT NOT NULL,
  limit_key TEXT NOT NULL,
  tokens REAL NOT NULL,
  refilled_at BIGINT NOT NULL,
  held_until BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (queue, limit_key)
);

-- The running counts of a limited lease: LEASED rows of a queue by key.
CREATE INDEX redrive_messages_running ON redrive_messages (queue, limit_key, visible_at)
  WHERE state = 'LEASED';
