package io.redrive.queue;

/**
 * Where a circuit of a queue's dependency stands: CLOSED lets every message through, OPEN holds the
 * messages that need the dependency (not leased, no attempt used) until its next probe, HALF_OPEN
 * lets them through in growing waves, one wave per probe interval, until the last wave closes it.
 */
public enum CircuitState {
  /** The dependency is healthy: failures are counted in the window. */
  CLOSED,
  /** The dependency is down: its messages wait for the next probe. */
  OPEN,
  /** A canary got through: the dependency's messages come back wave by wave. */
  HALF_OPEN
}
