package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.RaisedEvent;
import java.util.List;

/**
 * How one run of orchestration code against its history ended, with the events it issued. Outcomes
 * other than {@link Bounced} commit; a bounce abandons the turn (counted).
 */
public sealed interface RunResult {
  /** Events the run appends to history (commands, then the terminal event if any). */
  List<Event> events();

  /** The custom status the code set (JSON), or null to keep the stored one. */
  JsonNode customStatus();

  /** The code waits for a result not in history yet. */
  record Suspended(List<Event> events, JsonNode customStatus) implements RunResult {}

  /** The code returned. */
  record Completed(List<Event> events, JsonNode customStatus, JsonNode output)
      implements RunResult {}

  /** The code threw, or its output was too large. */
  record Failed(List<Event> events, JsonNode customStatus, WorkflowFailure failure)
      implements RunResult {}

  /**
   * The code continued as new.
   *
   * @param version the version asked for, or null for the default
   * @param carriedEvents EVENT_RAISED data not consumed, oldest first
   * @param nextSeq the first command number of the next execution
   */
  record ContinuedAsNew(
      List<Event> events,
      JsonNode customStatus,
      JsonNode input,
      String version,
      List<RaisedEvent> carriedEvents,
      long nextSeq)
      implements RunResult {}

  /**
   * The replay did not match history, or a recorded payload no longer decodes: nothing commits.
   *
   * @param reason NONDETERMINISM or SERIALIZATION_ERROR
   * @param message the mismatch, in the words of docs/workflows.md
   * @param mismatch where a NONDETERMINISM bounce stopped fitting history, or null
   */
  record Bounced(String reason, String message, Mismatch mismatch) implements RunResult {
    @Override
    public List<Event> events() {
      return List.of();
    }

    @Override
    public JsonNode customStatus() {
      return null;
    }
  }
}
