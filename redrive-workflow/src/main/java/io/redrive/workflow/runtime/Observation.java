package io.redrive.workflow.runtime;

import org.slf4j.event.Level;

/** Something a decision counts or logs; the committer reports it when it carries the turn out. */
sealed interface Observation {
  /** A poisoned orchestration or activity ({@code level}). */
  record Poisoned(String level) implements Observation {}

  /** An orchestration this node has no code for. */
  record Unregistered(String name) implements Observation {}

  /** A replay that did not fit its history. */
  record Nondeterminism(String name, String version) implements Observation {}

  /** Inbox rows dropped because their execution or command is gone. */
  record StaleResults(int count) implements Observation {}

  /** The events the execution holds after the commit. */
  record HistoryEvents(int count) implements Observation {}

  /** A log line of the runtime's logger. */
  record Log(Level level, String format, Object... args) implements Observation {}

  /** The code caught the suspension signal (warned once per instance). */
  record SwallowedSuspension(String instanceId, String name, String version)
      implements Observation {}
}
