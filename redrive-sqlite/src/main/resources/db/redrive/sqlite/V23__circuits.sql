-- Issue 33, failure handling: a queue backoff's jitter (docs/engine.md, "Backoff jitter").
-- NONE keeps today's exact delays; FULL and EQUAL spread them (the store draws the spread in Java).
ALTER TABLE redrive_queues ADD COLUMN backoff_jitter TEXT NOT NULL DEFAULT 'NONE';

-- Circuit breakers per dependency (docs/engine.md, "Circuit breakers"). A queue's circuit settings:
-- circuit_failures NULL means off. circuit_waves is the half-open wave sizes, e.g. '1,5,25'.
ALTER TABLE redrive_queues ADD COLUMN circuit_failures INTEGER;
ALTER TABLE redrive_queues ADD COLUMN circuit_window_ms BIGINT;
ALTER TABLE redrive_queues ADD COLUMN circuit_probe_ms BIGINT;
ALTER TABLE redrive_queues ADD COLUMN circuit_waves TEXT;
ALTER TABLE redrive_queues ADD COLUMN circuit_learn BOOLEAN NOT NULL DEFAULT 0;

-- The dependency the message's last failure named (NULL: none): while that dependency's circuit
-- holds, the limited lease leaves the message out. Written only by a failure that names one.
ALTER TABLE redrive_messages ADD COLUMN dependency TEXT;

-- One circuit per (queue, dependency), written under the queue row's lock by the failures that
-- name the dependency and by the limited lease while it holds (probe, waves). Times epoch millis.
-- types: the message types that failed against it, comma-separated ('' none).
CREATE TABLE redrive_circuits (
  queue TEXT NOT NULL,
  dependency TEXT NOT NULL,
  state TEXT NOT NULL,
  failures INTEGER NOT NULL,
  window_start BIGINT,
  opened_at BIGINT,
  next_probe_at BIGINT,
  wave INTEGER NOT NULL,
  passed INTEGER NOT NULL,
  types TEXT NOT NULL DEFAULT '',
  changed_at BIGINT,
  changed_by TEXT NOT NULL,
  PRIMARY KEY (queue, dependency)
);

-- The last changes of each circuit (the API's and dashboard's history), at most 50 per circuit.
CREATE TABLE redrive_circuit_changes (
  queue TEXT NOT NULL,
  dependency TEXT NOT NULL,
  changed_at BIGINT NOT NULL,
  state TEXT NOT NULL,
  changed_by TEXT NOT NULL
);
CREATE INDEX redrive_circuit_changes_by_circuit
  ON redrive_circuit_changes (queue, dependency, changed_at);
