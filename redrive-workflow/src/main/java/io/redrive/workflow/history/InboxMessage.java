package io.redrive.workflow.history;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event.RaisedEvent;
import java.time.Instant;
import java.util.List;

/**
 * What one inbox row brings a turn (docs/workflows.md, "Inbox row"), one record per kind. Only
 * {@link InboxCodec} knows how a message is stored.
 */
public sealed interface InboxMessage {

  /** The first turn of a new instance; {@code input} is the start's. */
  record Start(JsonNode input) implements InboxMessage {}

  /**
   * The next execution of a continue-as-new: the orchestration's name, the input, the version asked
   * for (null: the default), the events carried over and its first command number.
   */
  record Continue(
      String name, JsonNode input, String version, List<RaisedEvent> carriedEvents, long firstSeq)
      implements InboxMessage {
    public Continue {
      carriedEvents = List.copyOf(carriedEvents);
    }
  }

  /** A result that answers command {@code seq} of {@code executionId} (null: the current one). */
  sealed interface Result extends InboxMessage {
    long seq();

    Integer executionId();
  }

  /**
   * How an activity's message ended, as the store wrote it.
   *
   * @param outcome COMPLETED, FAILED, POISONED or EXPIRED
   * @param attempt the message's delivery attempts
   * @param failure the failure, or null when it completed
   * @param attempts its attempt story (copied into history)
   */
  record ActivityResult(
      long seq,
      Integer executionId,
      String messageId,
      String outcome,
      int attempt,
      JsonNode result,
      ActivityFailure failure,
      JsonNode attempts)
      implements Result {}

  /**
   * An activity message's failure as the store recorded it; fields are null where it had none.
   *
   * @param poisonedMessage the message with its attempt story (POISON), or the whole result when
   *     the store gave none
   */
  record ActivityFailure(
      String reason,
      String category,
      String message,
      String stackTrace,
      boolean retryable,
      Long retryAfterMs,
      Integer attempt,
      Integer maxAttempts,
      String poisonedMessage) {}

  /** A timer fired. */
  record TimerFired(long seq, Integer executionId, TimerPurpose purpose, Integer retryNumber)
      implements Result {}

  /**
   * A child ended.
   *
   * @param outcome COMPLETED, FAILED or TERMINATED
   * @param failure its failure, or null when it completed
   */
  record ChildResult(
      long seq,
      Integer executionId,
      String name,
      String outcome,
      JsonNode result,
      WorkflowFailure failure)
      implements Result {}

  /** An external event. */
  record EventRaised(String name, JsonNode payload) implements InboxMessage {}

  /**
   * The runtime's own row, written by a checkpoint whose local activities are still to run: it
   * keeps the instance due should the turn's lease run out, and carries the crashes charged to
   * those activities so far (docs/workflows.md, "Local and queued activities").
   */
  record Checkpoint(List<LocalCrash> crashes) implements InboxMessage {
    public Checkpoint {
      crashes = List.copyOf(crashes);
    }
  }

  /**
   * A node that died (its turn lease ran out) while a local activity's try ran: one counted, failed
   * attempt of that activity.
   */
  record LocalCrash(long seq, int retryNumber, String node, Instant leasedAt, Instant endedAt) {}

  /** An operator (or a terminated parent) asks the instance to end. */
  record Terminate(String reason) implements InboxMessage {}

  /** A row of a kind this build does not know (written by a newer one): dropped as stale. */
  record Unknown(String kind) implements InboxMessage {}

  /** A row whose data is not what its kind needs: the turn cannot use its batch. */
  record Unreadable(long seq, String kind, String error) implements InboxMessage {}
}
