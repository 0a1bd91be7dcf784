-- Durable workflows (docs/workflows.md). An instance is one workflow run under the id its starter
-- chose; each execution (one run between a start and a continue-as-new) has its own append-only
-- history; events wait in the inbox for the instance's next turn (one lease of the instance with
-- its visible inbox rows, one replay, one commit); activities are ordinary messages in
-- workflow-owned queues, linked to their instance; a turn that ends without a commit leaves a turn
-- row (a committed turn writes none, like the message history). The store never reads the JSON.
ALTER TABLE redrive_queues ADD COLUMN workflow_owned BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE redrive_wf_instances (
  seq               BIGSERIAL PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,
  name              TEXT NOT NULL,
  version           TEXT,
  requested_version TEXT,
  status            TEXT NOT NULL,
  execution_id      INTEGER NOT NULL,
  parent_id         TEXT,
  parent_execution  INTEGER,
  parent_seq        BIGINT,
  root_id           TEXT NOT NULL,
  input             TEXT,
  output            TEXT,
  failure           TEXT,
  custom_status     TEXT,
  created_at        BIGINT NOT NULL,
  updated_at        BIGINT NOT NULL,
  completed_at      BIGINT,
  not_before        BIGINT NOT NULL DEFAULT 0,
  turn_attempt      INTEGER NOT NULL DEFAULT 0,
  lease_token       TEXT,
  leased_by         TEXT,
  leased_at         BIGINT,
  lease_expires_at  BIGINT,
  history_events    INTEGER NOT NULL DEFAULT 0,
  history_bytes     BIGINT NOT NULL DEFAULT 0,
  terminate_reason  TEXT
);
CREATE INDEX redrive_wf_instances_status ON redrive_wf_instances (status, seq);
CREATE INDEX redrive_wf_instances_name ON redrive_wf_instances (name, version, status);
CREATE INDEX redrive_wf_instances_parent ON redrive_wf_instances (parent_id)
  WHERE parent_id IS NOT NULL;
CREATE INDEX redrive_wf_instances_root ON redrive_wf_instances (root_id);
CREATE INDEX redrive_wf_instances_completed ON redrive_wf_instances (completed_at)
  WHERE completed_at IS NOT NULL;

CREATE TABLE redrive_wf_executions (
  instance_id  TEXT NOT NULL,
  execution_id INTEGER NOT NULL,
  name         TEXT NOT NULL,
  version      TEXT,
  status       TEXT NOT NULL,
  input        TEXT,
  output       TEXT,
  started_at   BIGINT NOT NULL,
  ended_at     BIGINT,
  first_seq    BIGINT NOT NULL,
  PRIMARY KEY (instance_id, execution_id)
);

-- Append-only: a row is never rewritten, and the key makes a second append of an event id fail.
CREATE TABLE redrive_wf_history (
  instance_id  TEXT NOT NULL,
  execution_id INTEGER NOT NULL,
  event_id     INTEGER NOT NULL,
  kind         TEXT NOT NULL,
  seq          BIGINT,
  name         TEXT,
  data         TEXT NOT NULL,
  turn         INTEGER NOT NULL,
  at           BIGINT NOT NULL,
  PRIMARY KEY (instance_id, execution_id, event_id)
);

-- A timer is an inbox row whose visible_at is its fire time; execution_id NULL means the current.
CREATE TABLE redrive_wf_inbox (
  seq          BIGSERIAL PRIMARY KEY,
  instance_id  TEXT NOT NULL,
  execution_id INTEGER,
  kind         TEXT NOT NULL,
  ref_seq      BIGINT,
  name         TEXT,
  data         TEXT,
  visible_at   BIGINT NOT NULL,
  enqueued_at  BIGINT NOT NULL,
  dedupe_key   TEXT
);
CREATE INDEX redrive_wf_inbox_due ON redrive_wf_inbox (visible_at, seq);
CREATE INDEX redrive_wf_inbox_instance ON redrive_wf_inbox (instance_id, seq);
CREATE UNIQUE INDEX redrive_wf_inbox_dedupe ON redrive_wf_inbox (instance_id, dedupe_key)
  WHERE dedupe_key IS NOT NULL;
-- Rows arrive with every event and leave with the turn that takes them, like the messages:
-- vacuum it as often (see V3).
ALTER TABLE redrive_wf_inbox SET (
  vacuum_truncate = false,
  autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0.01,
  autovacuum_analyze_scale_factor = 0.02,
  autovacuum_vacuum_cost_limit = 2000
);

CREATE TABLE redrive_wf_activities (
  instance_id  TEXT NOT NULL,
  execution_id INTEGER NOT NULL,
  seq          BIGINT NOT NULL,
  message_id   TEXT NOT NULL UNIQUE,
  queue        TEXT NOT NULL,
  name         TEXT NOT NULL,
  retry_number INTEGER NOT NULL,
  status       TEXT NOT NULL,
  scheduled_at BIGINT NOT NULL,
  settled_at   BIGINT,
  PRIMARY KEY (instance_id, execution_id, seq)
);

CREATE TABLE redrive_wf_turns (
  id           BIGSERIAL PRIMARY KEY,
  instance_id  TEXT NOT NULL,
  execution_id INTEGER NOT NULL,
  attempt      INTEGER NOT NULL,
  node         TEXT,
  build        TEXT,
  leased_at    BIGINT,
  ended_at     BIGINT NOT NULL,
  outcome      TEXT NOT NULL,
  reason       TEXT,
  message      TEXT
);
CREATE INDEX redrive_wf_turns_instance ON redrive_wf_turns (instance_id, id);
