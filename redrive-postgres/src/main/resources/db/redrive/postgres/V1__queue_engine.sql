-- Redrive queue engine schema (PostgreSQL). Times are epoch milliseconds.
CREATE TABLE redrive_queues (
  name               TEXT PRIMARY KEY,
  max_attempts       INTEGER NOT NULL,
  lease_timeout_ms   BIGINT NOT NULL,
  backoff_kind       TEXT NOT NULL,
  backoff_initial_ms BIGINT NOT NULL,
  backoff_multiplier DOUBLE PRECISION NOT NULL,
  backoff_max_ms     BIGINT NOT NULL,
  expire_after_ms    BIGINT,
  dead_letter_mode   TEXT NOT NULL,
  dead_letter_queue  TEXT,
  stream_policy      TEXT NOT NULL,
  paused             BOOLEAN NOT NULL,
  created_at         BIGINT NOT NULL,
  updated_at         BIGINT NOT NULL
);

CREATE TABLE redrive_messages (
  seq          BIGSERIAL PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  queue        TEXT NOT NULL,
  type         TEXT NOT NULL,
  payload      TEXT NOT NULL,
  headers      TEXT,
  stream       TEXT,
  state        TEXT NOT NULL,
  attempts     INTEGER NOT NULL,
  progress     BIGINT NOT NULL,
  enqueued_at  BIGINT NOT NULL,
  visible_at   BIGINT NOT NULL,
  expire_at    BIGINT,
  lease_token  TEXT,
  lease_batch  TEXT,
  leased_by    TEXT,
  leased_at    BIGINT,
  dead_reason  TEXT,
  dead_at      BIGINT,
  source_id    TEXT,
  source_queue TEXT,
  dedupe_key   TEXT
);

-- The hot index: what can be leased, in serve order. LEASED rows are here because an expired
-- lease makes its message leasable again (visible_at is the lease expiry while leased).
CREATE INDEX redrive_messages_serve ON redrive_messages (queue, visible_at, seq)
  WHERE state IN ('READY', 'LEASED');
CREATE INDEX redrive_messages_stream ON redrive_messages (queue, stream, seq)
  WHERE stream IS NOT NULL;
CREATE INDEX redrive_messages_state ON redrive_messages (queue, state, seq);
CREATE INDEX redrive_messages_expire ON redrive_messages (expire_at)
  WHERE expire_at IS NOT NULL;
CREATE UNIQUE INDEX redrive_messages_dedupe ON redrive_messages (queue, dedupe_key)
  WHERE dedupe_key IS NOT NULL;
CREATE UNIQUE INDEX redrive_messages_source ON redrive_messages (queue, source_id)
  WHERE source_id IS NOT NULL;

CREATE TABLE redrive_history (
  hid              BIGSERIAL PRIMARY KEY,
  message_id       TEXT NOT NULL,
  attempt          INTEGER NOT NULL,
  outcome          TEXT NOT NULL,
  worker           TEXT,
  leased_at        BIGINT,
  settled_at       BIGINT,
  reason           TEXT,
  error_message    TEXT,
  retryable        BOOLEAN,
  max_attempts     INTEGER,
  stack_trace      TEXT,
  poisoned_message TEXT,
  note             TEXT
);
CREATE INDEX redrive_history_message ON redrive_history (message_id, hid);
