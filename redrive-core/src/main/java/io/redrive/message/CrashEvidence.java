package io.redrive.message;

import java.util.Optional;

/**
 * What a lease expiry on a queue with a crash-loop breaker showed (docs/engine.md, "Crash
 * evidence"), kept in the {@code LEASE_EXPIRED} history entry's note ({@link #note}). Only {@link
 * #WORKER_DIED} counts toward {@code maxCrashes}; an entry without evidence (written before it was
 * recorded, or on a queue without the breaker) counts as it always did.
 */
public enum CrashEvidence {
  /** Some engine node was continuously alive across the lease: the worker died, the rest lived. */
  WORKER_DIED("worker-died", "another engine node was alive across the lease"),
  /**
   * No engine node was alive across the lease: the database or every process was gone (or the one
   * process that held the lease died with nothing else watching). Not counted as a crash.
   */
  OUTAGE("outage", "no engine node was alive across the lease: not counted as a crash");

  private static final String PREFIX = "evidence: ";

  private final String word;
  private final String why;

  CrashEvidence(String word, String why) {
    this.word = word;
    this.why = why;
  }

  /** The word in JSON, notes and the timeline: {@code worker-died} or {@code outage}. */
  public String word() {
    return word;
  }

  /** The history note that records it, e.g. {@code evidence: outage (no engine node ...)}. */
  public String note() {
    return PREFIX + word + " (" + why + ")";
  }

  /** The evidence a LEASE_EXPIRED entry records, if any. */
  public static Optional<CrashEvidence> of(HistoryEntry entry) {
    if (entry.outcome() != Outcome.LEASE_EXPIRED || entry.note() == null) {
      return Optional.empty();
    }
    for (CrashEvidence e : values()) {
      if (entry.note().startsWith(PREFIX + e.word)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }
}
