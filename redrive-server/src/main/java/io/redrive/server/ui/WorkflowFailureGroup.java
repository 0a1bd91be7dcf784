package io.redrive.server.ui;

import io.redrive.deadletter.Fingerprint;
import java.time.Instant;
import java.util.List;

/**
 * Failed workflow instances of one cause, as the failures page shows them.
 *
 * @param pieces what grouped them (reason, activity, cause, exception class, message, frames) and
 *     the key
 * @param count how many of the failed instances read have this fingerprint
 * @param retryable how many of them a retry may bring back (system failures)
 * @param orchestrations their orchestrations, each with its version ({@code Deploy 1.0.0})
 * @param display the latest failure's one line
 * @param firstFailed when the earliest of them failed
 * @param lastFailed when the latest of them failed
 * @param example the id of the latest of them
 */
public record WorkflowFailureGroup(
    Fingerprint.Text pieces,
    int count,
    int retryable,
    List<String> orchestrations,
    String display,
    Instant firstFailed,
    Instant lastFailed,
    String example) {

  public WorkflowFailureGroup {
    orchestrations = List.copyOf(orchestrations);
  }

  /** The group's key. */
  public String key() {
    return pieces.key();
  }
}
