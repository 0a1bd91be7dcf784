package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.SubOrchestrationFailedException;
import io.redrive.workflow.SubOrchestrationOptions;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event.ChildCompleted;
import io.redrive.workflow.history.Event.ChildFailed;
import io.redrive.workflow.history.Event.ChildScheduled;
import io.redrive.workflow.history.Event.Completion;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

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
final class ChildCall<O> extends BaseTask<O> implements RunState.Retrying {
  enum Phase {
    SCHEDULED,
    RETRY_WAITING
  }

  private final String name;
  private final String version;
  private final String firstId;
  private final JsonNode input;
  private final RetryPolicy retry;
  private final Instant firstCalledAt;
  private final Type resultType;
  private int retryNumber;
  Phase phase = Phase.SCHEDULED;

  ChildCall(
      RunState run,
      long seq,
      String name,
      String version,
      String firstId,
      JsonNode input,
      RetryPolicy retry,
      Type resultType) {
    super(run, seq);
    this.name = name;
    this.version = version;
    this.firstId = firstId;
    this.input = input;
    this.retry = retry == null ? RetryPolicy.none() : retry;
    this.firstCalledAt = run.now;
    this.resultType = resultType;
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

  @Override
  public int retryNumber() {
    return retryNumber;
  }

  @Override
  @SuppressWarnings("unchecked")
  void resolve(HistoryEvent e, int at) {
    if (e.event() instanceof ChildCompleted c) {
      succeed((O) run.decode("sub-orchestration result", c.result(), resultType), at);
      return;
    }
    if (!(e.event() instanceof ChildFailed f)) {
      run.mismatchAt(e, (Completion) e.event(), EventKind.CHILD_SCHEDULED);
      return;
    }
    WorkflowFailure failure = f.failure();
    int failedTry = f.retryNumber();
    // A child's own failure is final for that instance, but a retry is a new instance: the
    // policy decides, except for a termination or a taken id, which a retry cannot change.
    boolean retryable =
        !WorkflowFailure.TERMINATED.equals(failure.reason())
            && !WorkflowFailure.INSTANCE_EXISTS.equals(failure.reason());
    Optional<Duration> delay =
        retry.nextDelay(
            failedTry, failure.withRetryable(retryable), Duration.between(firstCalledAt, run.now));
    if (delay.isEmpty()) {
      fail(new SubOrchestrationFailedException(failure), at);
      return;
    }
    phase = Phase.RETRY_WAITING;
    ActivityCall.retryTimer(run, seq, failedTry + 1, delay.get(), name);
  }

  /** A retry's child: a new instance, since the failed one keeps its story. */
  @Override
  public void retryFired(int number) {
    retryNumber = number;
    phase = Phase.SCHEDULED;
    if (run.commands.firstRetry(EventKind.CHILD_SCHEDULED, seq, number)) {
      run.out.add(
          new ChildScheduled(
              seq, name, version, firstId + "::retry::" + number, false, input, number));
    }
  }
}
