package io.redrive.workflow.replay;

import io.redrive.PayloadTooLargeException;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import java.util.List;

/**
 * How a run ended, from what its state recorded: a stop signal first (an undecodable payload, a
 * mismatch), then suspension, continue-as-new, failure or completion, each after the check that the
 * code issued every command history has.
 */
final class RunEnding {
  private RunEnding() {}

  static RunResult of(RunState state, Payloads payloads, Object output, Exception thrown) {
    List<Event> out = state.out;
    if (state.undecodable != null) {
      return new RunResult.Bounced("SERIALIZATION_ERROR", state.undecodable, null);
    }
    if (state.mismatch != null) {
      return new RunResult.Bounced(
          WorkflowFailure.NONDETERMINISM, state.mismatch, state.mismatchDetail);
    }
    CommandLog commands = state.commands;
    if (state.suspended) {
      long at = state.suspendedAt == null ? commands.nextSeq() - 1 : state.suspendedAt;
      RunResult.Bounced unissued = commands.unissued("suspended at #" + at);
      return unissued != null ? unissued : new RunResult.Suspended(out, state.customStatus);
    }
    if (state.continued) {
      RunResult.Bounced unissued = commands.unissued("continued as new");
      if (unissued != null) {
        return unissued;
      }
      return new RunResult.ContinuedAsNew(
          out,
          state.customStatus,
          state.continueInput,
          state.continueVersion,
          state.unconsumedEvents(),
          commands.nextSeq());
    }
    RunResult.Bounced unissued = commands.unissued(thrown == null ? "completed" : "failed");
    if (unissued != null) {
      return unissued;
    }
    if (thrown != null) {
      return new RunResult.Failed(out, state.customStatus, state.failureOf(thrown));
    }
    try {
      return new RunResult.Completed(out, state.customStatus, payloads.encode("output", output));
    } catch (PayloadTooLargeException e) {
      return new RunResult.Failed(
          out,
          state.customStatus,
          WorkflowFailure.of(
              WorkflowFailure.PAYLOAD_TOO_LARGE,
              "application",
              e.getMessage(),
              state.spec.instanceId(),
              state.spec.executionId(),
              null));
    } catch (IllegalArgumentException e) {
      // the output cannot be written as JSON: a bug of the code, the same on every replay
      return new RunResult.Failed(out, state.customStatus, state.failureOf(e));
    }
  }
}
