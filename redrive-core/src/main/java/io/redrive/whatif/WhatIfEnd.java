package io.redrive.whatif;

/** How one replayed message ends, recorded or under the candidate policy. */
public enum WhatIfEnd {
  /** It completed. */
  COMPLETED,
  /** It died because it used its attempts (a failure at the limit, or poison at the next lease). */
  DEAD_ATTEMPTS,
  /** The crash-loop breaker killed it. */
  DEAD_CRASH_LOOP,
  /** A failure that is not retryable killed it: no policy changes that. */
  DEAD_NOT_RETRYABLE,
  /** It died for a reason the replay does not model (its deadline, an operator): as recorded. */
  DEAD_OTHER
}
