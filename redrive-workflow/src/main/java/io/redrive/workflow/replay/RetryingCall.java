package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.TimerCreated;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.TimerPurpose;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A command a retry policy may schedule again (an activity or a child), and the states it shares:
 *
 * <pre>
 * SCHEDULED --its completion--> SUCCEEDED
 * SCHEDULED --its failure, the policy gives up--> FAILED
 * SCHEDULED --its failure, the policy retries--> RETRY_WAITING (a RETRY timer)
 * RETRY_WAITING --TIMER_FIRED(RETRY)--> SCHEDULED (the command again, the next retry number)
 * </pre>
 *
 * Each retry's command and timer is written once, whatever history already holds.
 */
abstract class RetryingCall<O> extends BaseTask<O> implements RunState.Retrying {
  enum Phase {
    SCHEDULED,
    RETRY_WAITING
  }

  final String name;
  final JsonNode input;
  final Type resultType;
  private final String commandKind;
  private final RetryPolicy retry;
  private final Instant firstCalledAt;
  private int retryNumber;
  Phase phase = Phase.SCHEDULED;

  RetryingCall(
      RunState run,
      long seq,
      String commandKind,
      String name,
      JsonNode input,
      RetryPolicy retry,
      Type resultType) {
    super(run, seq);
    this.commandKind = commandKind;
    this.name = name;
    this.input = input;
    this.retry = retry == null ? RetryPolicy.none() : retry;
    this.firstCalledAt = run.now;
    this.resultType = resultType;
  }

  /** The command of retry {@code number}. */
  abstract Event rescheduled(int number);

  /**
   * Try {@code failedTry} failed: the policy (which sees {@code asPolicySees}) schedules the next
   * try behind a RETRY timer, or the call fails with {@code giveUp}.
   */
  final void failed(
      int failedTry, WorkflowFailure asPolicySees, RuntimeException giveUp, int position) {
    Optional<Duration> delay =
        retry.nextDelay(failedTry, asPolicySees, Duration.between(firstCalledAt, run.now));
    if (delay.isEmpty()) {
      fail(giveUp, position);
      return;
    }
    phase = Phase.RETRY_WAITING;
    int next = failedTry + 1;
    if (run.commands.firstRetry(EventKind.TIMER_CREATED, seq, next)) {
      run.out.add(
          new TimerCreated(seq, run.now.plus(delay.get()), TimerPurpose.RETRY, null, next, name));
    }
  }

  @Override
  public final int retryNumber() {
    return retryNumber;
  }

  @Override
  public final void retryFired(int number) {
    retryNumber = number;
    phase = Phase.SCHEDULED;
    if (run.commands.firstRetry(commandKind, seq, number)) {
      run.out.add(rescheduled(number));
    }
  }
}
