package io.redrive;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's one logger, for the classes behind the {@link Redrive} facade. The name stays
 * {@value #NAME}, as docs/engine.md and docs/worker.md promise, but is spelled out so no class
 * below the facade depends on it for its logger. Stateless; any thread.
 */
final class EngineLog {
  /** The logger name the engine writes to. */
  static final String NAME = "io.redrive.Redrive";

  static final Logger LOG = LoggerFactory.getLogger(NAME);

  private EngineLog() {}
}
