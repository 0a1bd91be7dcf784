package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.SubOrchestrationFailedException;
import io.redrive.workflow.SubOrchestrationOptions;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ChildCompleted;
import io.redrive.workflow.history.Event.ChildFailed;
import io.redrive.workflow.history.Event.ChildScheduled;
import io.redrive.workflow.history.Event.Completion;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import java.lang.reflect.Type;

/**
 * One {@code callSubOrchestration} command and its state machine:
 *
 * <pre>
 * SCHEDULED --CHILD_COMPLETED--> SUCCEEDED
 * SCHEDULED --CHILD_FAILED, policy gives up (always for TERMINATED, INSTANCE_EXISTS)--> FAILED
 * SCHEDULED --CHILD_FAILED, policy retries--> RETRY_WAITING (a RETRY timer)
 * RETRY_WAITING --TIMER_FIRED(RETRY)--> SCHEDULED (a new child, id "...::retry::n")
 * </pre>
 */
final class ChildCall<O> extends RetryingCall<O> {
  private final String version;
  private final String firstId;

  ChildCall(
      RunState run,
      long seq,
      String name,
      String version,
      String firstId,
      JsonNode input,
      RetryPolicy retry,
      Type resultType) {
    super(run, seq, EventKind.CHILD_SCHEDULED, name, input, retry, resultType);
    this.version = version;
    this.firstId = firstId;
  }

  /**
   * Issues a {@code callSubOrchestration}: takes its command number, checks it against history,
   * writes the command when it is new (the child's id: the options' or {@code
   * <instance>::sub::<number>}).
   */
  static <O> ChildCall<O> issue(
      RunState run, String name, Object input, SubOrchestrationOptions options, Type resultType) {
    SubOrchestrationOptions o = options == null ? SubOrchestrationOptions.defaults() : options;
    long seq = run.commands.issue(run, EventKind.CHILD_SCHEDULED, name);
    JsonNode inputNode;
    String childId;
    if (run.commands.recorded(seq) instanceof ChildScheduled recorded) {
      inputNode = recorded.input();
      childId = recorded.instanceId();
    } else {
      inputNode = run.payloads.encode("sub-orchestration " + name + " input", input);
      childId = o.instanceId() != null ? o.instanceId() : run.spec.instanceId() + "::sub::" + seq;
      run.out.add(
          new ChildScheduled(
              seq, name, o.version(), childId, o.instanceId() != null, inputNode, 0));
    }
    return run.register(
        new ChildCall<>(run, seq, name, o.version(), childId, inputNode, o.retry(), resultType));
  }

  /** A retry's child: a new instance, since the failed one keeps its story. */
  @Override
  Event rescheduled(int number) {
    return new ChildScheduled(
        seq, name, version, firstId + "::retry::" + number, false, input, number);
  }

  @Override
  @SuppressWarnings("unchecked")
  void resolve(HistoryEvent e, int at) {
    if (e.event() instanceof ChildCompleted c) {
      succeed(
          (O)
              run.decode(
                  "sub-orchestration " + name + "#" + seq + " result", c.result(), resultType),
          at);
    } else if (e.event() instanceof ChildFailed f) {
      WorkflowFailure failure = f.failure();
      // A child's own failure is final for that instance, but a retry is a new instance: the
      // policy decides, except for a termination or a taken id, which a retry cannot change.
      boolean retryable =
          !WorkflowFailure.TERMINATED.equals(failure.reason())
              && !WorkflowFailure.INSTANCE_EXISTS.equals(failure.reason());
      failed(
          f.retryNumber(),
          failure.withRetryable(retryable),
          new SubOrchestrationFailedException(failure),
          at);
    } else {
      run.mismatchAt(e, (Completion) e.event(), EventKind.CHILD_SCHEDULED);
    }
  }
}
