package io.redrive.workflow.history;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.OrchestrationContext.ParentRef;
import io.redrive.workflow.WorkflowFailure;
import java.time.Instant;
import java.util.List;

/**
 * What one history event says, one record per kind (docs/workflows.md, "History event kinds").
 * Payloads the user's code reads (inputs, results, event payloads) stay JSON trees; everything the
 * engine reads is a typed field. Only {@link EventCodec} knows how an event is stored.
 */
public sealed interface Event {

  /** The kind as stored ({@code redrive_wf_history.kind}). */
  default String kind() {
    return EventCodec.kindOf(this);
  }

  /** An event code issues under a command number and replay matches: scheduled work, a patch. */
  sealed interface Command extends Event {
    long seq();

    /** What nondeterminism messages call it: an activity's or child's name, a timer's purpose. */
    String label();
  }

  /** An event that ends (or answers) a command. */
  sealed interface Completion extends Event {
    long seq();
  }

  /** An event that ends an execution. */
  sealed interface End extends Event {}

  /**
   * An execution began.
   *
   * @param instanceId the instance (null in histories written before it was recorded)
   * @param version the version it runs ({@code unresolved} when it was poisoned before any code)
   * @param parent the parent that started it, or null
   * @param firstSeq its first command number (continuing the previous execution's)
   * @param carriedEvents events the previous execution left unconsumed, oldest first
   */
  record OrchestrationStarted(
      String instanceId,
      String name,
      String version,
      JsonNode input,
      ParentRef parent,
      long firstSeq,
      List<RaisedEvent> carriedEvents)
      implements Event {
    public OrchestrationStarted {
      carriedEvents = List.copyOf(carriedEvents);
    }
  }

  /** A turn began: its number in the execution, who ran it, and its try. */
  record TurnStarted(int turn, String node, String build, int attempt) implements Event {}

  /**
   * An activity was scheduled (again, for a retry policy's retry).
   *
   * @param queue the queue its options named, or null for the registration's or the default
   * @param timeoutMs its timeout from the options, or null
   * @param local true when it runs in the turn's process, its result written by the turn's next
   *     commit (no queue message); decided when the command was issued, never on replay
   * @param priority the message's priority from the options, or null for its queue's default
   *     (histories written before activities carried one hold none)
   * @param limitKey the message's limit key from the options, or null
   */
  record ActivityScheduled(
      long seq,
      String name,
      JsonNode input,
      String queue,
      int retryNumber,
      Long timeoutMs,
      boolean local,
      Integer priority,
      String limitKey)
      implements Command {
    /** A queued activity's command (stored histories before local activities hold only those). */
    public ActivityScheduled(
        long seq, String name, JsonNode input, String queue, int retryNumber, Long timeoutMs) {
      this(seq, name, input, queue, retryNumber, timeoutMs, false);
    }

    /** A command with its queue's default priority and no limit key. */
    public ActivityScheduled(
        long seq,
        String name,
        JsonNode input,
        String queue,
        int retryNumber,
        Long timeoutMs,
        boolean local) {
      this(seq, name, input, queue, retryNumber, timeoutMs, local, null, null);
    }

    @Override
    public String label() {
      return name;
    }
  }

  /**
   * An activity's message completed.
   *
   * @param name the activity (the command's name)
   * @param attempts the message's attempt story as the store wrote it
   */
  record ActivityCompleted(
      long seq, String name, int retryNumber, String messageId, JsonNode result, JsonNode attempts)
      implements Completion {}

  /** An activity's message ended with a failure (application or system). */
  record ActivityFailed(
      long seq,
      String name,
      int retryNumber,
      String messageId,
      WorkflowFailure failure,
      JsonNode attempts)
      implements Completion {}

  /**
   * A timer was created.
   *
   * @param event the event a timeout timer waits for, or null
   * @param retryNumber the retry a RETRY timer leads to, or null
   * @param activity the activity or child a RETRY timer retries, or null
   */
  record TimerCreated(
      long seq,
      Instant fireAt,
      TimerPurpose purpose,
      String event,
      Integer retryNumber,
      String activity)
      implements Command {
    @Override
    public String label() {
      return purpose.name();
    }
  }

  /** A timer fired. */
  record TimerFired(long seq, TimerPurpose purpose, Integer retryNumber) implements Completion {}

  /** An external event arrived. */
  record EventRaised(String name, JsonNode payload) implements Event {}

  /**
   * A sub-orchestration was scheduled (again, for a retry).
   *
   * @param version the version asked for, or null for the default
   * @param explicitId true when the caller chose the child's id
   * @param retryNumber 0 for the first try
   */
  record ChildScheduled(
      long seq,
      String name,
      String version,
      String instanceId,
      boolean explicitId,
      JsonNode input,
      int retryNumber)
      implements Command {
    @Override
    public String label() {
      return name;
    }
  }

  /** A child completed; {@code name} is the command's. */
  record ChildCompleted(long seq, String name, int retryNumber, JsonNode result)
      implements Completion {}

  /** A child failed, was terminated, or could not start. */
  record ChildFailed(long seq, String name, int retryNumber, WorkflowFailure failure)
      implements Completion {}

  /** Code passed a {@code patched(changeId)} point on the new branch. */
  record PatchApplied(long seq, String changeId) implements Command {
    @Override
    public String label() {
      return changeId;
    }
  }

  /** The execution completed. */
  record OrchestrationCompleted(JsonNode output) implements End {}

  /** The execution failed. */
  record OrchestrationFailed(WorkflowFailure failure) implements End {}

  /** The execution was terminated. */
  record OrchestrationTerminated(String reason) implements End {}

  /** The execution continued as new; {@code version} is the one asked for, or null. */
  record ContinuedAsNew(JsonNode input, String version) implements End {}

  /**
   * An operator retried a system failure: the events it voids are left out of replay.
   *
   * @param by who asked
   * @param note the operator's note, or null
   * @param voided the event ids voided
   */
  record OrchestrationRetried(String by, String note, List<Integer> voided) implements Event {
    public OrchestrationRetried {
      voided = List.copyOf(voided);
    }
  }

  /** An event buffered for a wait, as a continue-as-new carries it. */
  record RaisedEvent(String name, JsonNode payload) {}
}
