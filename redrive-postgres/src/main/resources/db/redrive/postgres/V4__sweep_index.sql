-- The deadline sweep runs every second and asks for READY and LEASED messages past their
-- deadline. Dead messages keep their expire_at, so an index over every row with a deadline made
-- each sweep step over all of them; index only the rows the sweep can take.
DROP INDEX redrive_messages_expire;
CREATE INDEX redrive_messages_expire ON redrive_messages (expire_at)
  WHERE expire_at IS NOT NULL AND state IN ('READY', 'LEASED');
