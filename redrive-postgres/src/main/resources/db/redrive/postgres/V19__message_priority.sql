-- Message priorities (docs/design-decisions.md, "Priorities: a head start, not separate lanes").
-- A message's priority (0-9, higher first) and its head start (priority x the queue's aging, in
-- milliseconds, fixed at enqueue). Ready messages are served in order of
-- (visible_at - head_start, seq): every existing message has priority 0 and head start 0, so its
-- order is as before.
ALTER TABLE redrive_messages ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
ALTER TABLE redrive_messages ADD COLUMN head_start BIGINT NOT NULL DEFAULT 0;
ALTER TABLE redrive_queues ADD COLUMN default_priority INTEGER NOT NULL DEFAULT 0;
ALTER TABLE redrive_queues ADD COLUMN priority_aging_ms BIGINT NOT NULL DEFAULT 60000;
-- The hot index in the new serve order. The lease statements use the identical expression
-- (m.visible_at - m.head_start) both in their range test and their ORDER BY.
DROP INDEX redrive_messages_serve;
CREATE INDEX redrive_messages_serve ON redrive_messages (queue, (visible_at - head_start), seq)
  WHERE state IN ('READY', 'LEASED');
