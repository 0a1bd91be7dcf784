-- Every index a lease or a settle has to touch costs each of them. The (queue, state, seq) index
-- was touched by every state change; dead messages (the only state listed or redriven in bulk
-- that the serve index does not cover) get a partial index that leases and completions never
-- touch. Listing by state now reads the serve index, the dead index or the primary key.
DROP INDEX redrive_messages_state;
CREATE INDEX redrive_messages_dead ON redrive_messages (queue, seq) WHERE state = 'DEAD';
