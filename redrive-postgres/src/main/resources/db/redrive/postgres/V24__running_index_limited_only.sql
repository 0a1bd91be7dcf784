-- The running index held every lease of every queue, so each lease wrote one more index entry
-- even where no flow limit is set (a drain's WAL grew by a sixteenth). Only the limited lease path
-- counts running messages, and it marks what it leases: a message without a limit key leased
-- there gets the empty key (never a valid key; read back as none). Leases of unlimited queues
-- keep a null key and stay out of the index.
DROP INDEX redrive_messages_running;
CREATE INDEX redrive_messages_running ON redrive_messages (queue, limit_key, visible_at)
  WHERE state = 'LEASED' AND limit_key IS NOT NULL;
