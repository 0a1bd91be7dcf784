package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.ActivityFailedException;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event.ActivityCompleted;
import io.redrive.workflow.history.Event.ActivityFailed;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.Event.Completion;
import io.redrive.workflow.history.Event.TimerCreated;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.TimerPurpose;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One {@code callActivity} command and its state machine:
 *
 * <pre>
 * SCHEDULED --ACTIVITY_COMPLETED--> SUCCEEDED
 * SCHEDULED --ACTIVITY_FAILED, policy gives up--> FAILED (ActivityFailedException)
 * SCHEDULED --ACTIVITY_FAILED, policy retries--> RETRY_WAITING (a RETRY timer)
 * RETRY_WAITING --TIMER_FIRED(RETRY)--> SCHEDULED (ACTIVITY_SCHEDULED with the next retry number)
 * </pre>
 */
final class ActivityCall<O> extends BaseTask<O> implements RunState.Retrying {
  enum Phase {
    SCHEDULED,
    RETRY_WAITING
  }

  private final String name;
  private final JsonNode input;
  private final String queue;
  private final ActivityOptions options;
  private final RetryPolicy retry;
  private final Instant firstCalledAt;
  private final Type resultType;
  private int retryNumber;
  Phase phase = Phase.SCHEDULED;

  ActivityCall(
      RunState run,
      long seq,
      String name,
      JsonNode input,
      String queue,
      ActivityOptions options,
      Type resultType) {
    super(run, seq);
    this.name = name;
    this.input = input;
    this.queue = queue;
    this.options = options;
    this.retry = options.retry() == null ? RetryPolicy.none() : options.retry();
    this.firstCalledAt = run.now;
    this.resultType = resultType;
  }

  /**
   * Issues a {@code callActivity}: takes its command number, checks it against history, writes the
   * command when it is new (its input encoded and checked against the payload limit).
   */
  static <O> ActivityCall<O> issue(
      RunState run, String name, Object input, ActivityOptions options, Type resultType) {
    ActivityOptions o = options == null ? ActivityOptions.defaults() : options;
    long seq = run.commands.issue(run, EventKind.ACTIVITY_SCHEDULED, name);
    JsonNode inputNode;
    String queue;
    if (run.commands.recorded(seq) instanceof ActivityScheduled recorded) {
      inputNode = recorded.input();
      queue = recorded.queue();
    } else {
      inputNode = run.payloads.encode("activity " + name + " input", input);
      queue = o.queue();
      run.out.add(scheduled(seq, name, inputNode, queue, 0, o.timeout()));
    }
    return run.register(new ActivityCall<>(run, seq, name, inputNode, queue, o, resultType));
  }

  /** The command a new call writes (retry 0), or a retry writes. */
  static ActivityScheduled scheduled(
      long seq, String name, JsonNode input, String queue, int retryNumber, Duration timeout) {
    return new ActivityScheduled(
        seq, name, input, queue, retryNumber, timeout == null ? null : timeout.toMillis());
  }

  @Override
  public int retryNumber() {
    return retryNumber;
  }

  @Override
  @SuppressWarnings("unchecked")
  void resolve(HistoryEvent e, int at) {
    if (e.event() instanceof ActivityCompleted c) {
      succeed((O) run.decode("activity " + name + " result", c.result(), resultType), at);
      return;
    }
    if (!(e.event() instanceof ActivityFailed f)) {
      run.mismatchAt(e, (Completion) e.event(), EventKind.ACTIVITY_SCHEDULED);
      return;
    }
    WorkflowFailure failure = f.failure();
    int failedTry = f.retryNumber();
    Optional<Duration> delay =
        retry.nextDelay(failedTry, failure, Duration.between(firstCalledAt, run.now));
    if (delay.isEmpty()) {
      fail(new ActivityFailedException(failure), at);
      return;
    }
    phase = Phase.RETRY_WAITING;
    retryTimer(run, seq, failedTry + 1, delay.get(), name);
  }

  @Override
  public void retryFired(int number) {
    retryNumber = number;
    phase = Phase.SCHEDULED;
    if (run.commands.firstRetry(EventKind.ACTIVITY_SCHEDULED, seq, number)) {
      run.out.add(scheduled(seq, name, input, queue, number, options.timeout()));
    }
  }

  /** The RETRY timer of a retry policy, once per retry (history may have it already). */
  static void retryTimer(RunState run, long seq, int next, Duration delay, String what) {
    if (run.commands.firstRetry(EventKind.TIMER_CREATED, seq, next)) {
      run.out.add(new TimerCreated(seq, run.now.plus(delay), TimerPurpose.RETRY, null, next, what));
    }
  }
}
