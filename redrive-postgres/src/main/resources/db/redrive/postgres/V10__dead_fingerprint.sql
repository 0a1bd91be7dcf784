-- Dead-letter groups: the fingerprint of a dead message's cause (io.redrive.deadletter.Fingerprint),
-- written at every death. Rows dead before this migration stay NULL until a grouped read or a
-- fingerprint filter of their queue fills them (see docs/engine.md, "Dead-letter groups").
ALTER TABLE redrive_messages ADD COLUMN dead_fingerprint TEXT;
-- Serves GROUP BY queue, dead_fingerprint of dead rows (with the group's first and last death) from
-- the index alone, a group's latest message, and a group's messages in serve order (listing, drop
-- and redrive by fingerprint); like the dead index, leases and completions never touch it.
CREATE INDEX redrive_messages_dead_groups
  ON redrive_messages (queue, dead_fingerprint, seq, dead_at) WHERE state = 'DEAD';
-- The dead rows still to fingerprint, in the order the fill takes them (a batch then reads only its
-- own rows): empty once they are filled, so finding none costs nothing.
CREATE INDEX redrive_messages_dead_unfingerprinted ON redrive_messages (queue, seq)
  WHERE state = 'DEAD' AND dead_fingerprint IS NULL;
