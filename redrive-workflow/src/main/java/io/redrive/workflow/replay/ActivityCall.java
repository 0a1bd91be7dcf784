package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.ActivityFailedException;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ActivityCompleted;
import io.redrive.workflow.history.Event.ActivityFailed;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.Event.Completion;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import java.lang.reflect.Type;

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
final class ActivityCall<O> extends RetryingCall<O> {
  private final String queue;
  private final ActivityOptions options;

  /**
   * @param options the call's options, their priority and limit key the ones its first try recorded
   *     (so every retry keeps them, whatever a newer build's code asks for)
   */
  ActivityCall(
      RunState run,
      long seq,
      String name,
      JsonNode input,
      String queue,
      ActivityOptions options,
      Type resultType) {
    super(run, seq, EventKind.ACTIVITY_SCHEDULED, name, input, options.retry(), resultType);
    this.queue = queue;
    this.options = options;
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
      o = o.withPriority(recorded.priority()).withLimitKey(recorded.limitKey());
    } else {
      inputNode = run.payloads.encode("activity " + name + " input", input);
      queue = o.queue();
      run.out.add(
          scheduled(seq, name, inputNode, queue, 0, o, run.spec.placement().local(name, o)));
    }
    return run.register(new ActivityCall<>(run, seq, name, inputNode, queue, o, resultType));
  }

  /** The command a new call writes (retry 0), or a retry writes. */
  private static ActivityScheduled scheduled(
      long seq,
      String name,
      JsonNode input,
      String queue,
      int retryNumber,
      ActivityOptions o,
      boolean local) {
    Long timeoutMs = o.timeout() == null ? null : o.timeout().toMillis();
    return new ActivityScheduled(
        seq, name, input, queue, retryNumber, timeoutMs, local, o.priority(), o.limitKey());
  }

  /**
   * A retry is a new command: the node that writes it places it (the first try's may differ); it
   * keeps the first try's priority and limit key.
   */
  @Override
  Event rescheduled(int number) {
    boolean local = run.spec.placement().local(name, options);
    return scheduled(seq, name, input, queue, number, options, local);
  }

  @Override
  @SuppressWarnings("unchecked")
  void resolve(HistoryEvent e, int at) {
    if (e.event() instanceof ActivityCompleted c) {
      succeed(
          (O) run.decode("activity " + name + "#" + seq + " result", c.result(), resultType), at);
    } else if (e.event() instanceof ActivityFailed f) {
      failed(f.retryNumber(), f.failure(), new ActivityFailedException(f.failure()), at);
    } else {
      run.mismatchAt(e, (Completion) e.event(), EventKind.ACTIVITY_SCHEDULED);
    }
  }
}
