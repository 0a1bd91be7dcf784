package io.redrive.workflow.runtime;

import io.redrive.message.MessageIds;
import io.redrive.message.NewMessage;
import io.redrive.store.EnqueueParams;
import io.redrive.store.workflow.CommitTurnParams.ActivityStart;
import io.redrive.store.workflow.CommitTurnParams.ChildStart;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.Event.ChildScheduled;
import io.redrive.workflow.history.Event.TimerCreated;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.InboxCodec;
import io.redrive.workflow.history.InboxMessage.ChildResult;
import io.redrive.workflow.history.InboxMessage.TimerFired;
import io.redrive.workflow.replay.Payloads;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * What a turn's commands imply beyond history: an activity message for each scheduled activity, an
 * inbox row for each timer, a child instance for each sub-orchestration. Computed from the drafted
 * events alone, so the same commands always imply the same effects. Thread-safe: one instance
 * serves every turn; each call fills the draft it is given.
 */
final class TurnEffects {
  private final WorkflowRegistry registry;
  private final Payloads payloads;
  private final Clock clock;

  TurnEffects(WorkflowRegistry registry, Payloads payloads, Clock clock) {
    this.registry = registry;
    this.payloads = payloads;
    this.clock = clock;
  }

  /** Adds the effects of {@code draft}'s events for {@code instanceId}'s execution. */
  void apply(String instanceId, int executionId, TurnDraft draft) {
    for (HistoryEvent h : draft.events) {
      Event e = h.event();
      if (e instanceof ActivityScheduled a) {
        if (!a.local()) { // a local one runs in the turn: no message, no link
          draft.activities.add(activity(instanceId, executionId, a));
        }
      } else if (e instanceof TimerCreated t) {
        int retry = t.retryNumber() == null ? 0 : t.retryNumber();
        draft.send(
            instanceId,
            executionId,
            new TimerFired(t.seq(), executionId, t.purpose(), t.retryNumber()),
            t.fireAt(),
            "timer:" + executionId + ":" + t.seq() + ":" + retry);
      } else if (e instanceof ChildScheduled c) {
        draft.children.add(child(c));
      }
    }
  }

  private ActivityStart activity(String instanceId, int executionId, ActivityScheduled a) {
    String queue = a.queue();
    if (queue == null) {
      queue = registry.activity(a.name()).map(r -> r.queue()).orElse(ActivityOptions.DEFAULT_QUEUE);
    }
    Map<String, String> headers = new HashMap<>();
    headers.put(ActivityHeaders.INSTANCE, instanceId);
    headers.put(ActivityHeaders.EXECUTION, String.valueOf(executionId));
    headers.put(ActivityHeaders.ACTIVITY, String.valueOf(a.seq()));
    headers.put(ActivityHeaders.RETRY, String.valueOf(a.retryNumber()));
    if (a.timeoutMs() != null) {
      headers.put(ActivityHeaders.TIMEOUT_MS, String.valueOf(a.timeoutMs()));
    }
    NewMessage message =
        NewMessage.builder(queue, a.name())
            .payload(payloads.text(a.input()))
            .headers(headers)
            .priority(a.priority()) // null: the queue's default, as for any enqueue
            .limitKey(a.limitKey())
            .build();
    return new ActivityStart(
        new EnqueueParams.Entry(MessageIds.next(clock), message),
        a.seq(),
        a.name(),
        a.retryNumber());
  }

  /** A child to start; should its id be taken, the parent gets the INSTANCE_EXISTS failure. */
  private ChildStart child(ChildScheduled c) {
    String message = "instance id " + c.instanceId() + " is taken";
    WorkflowFailure taken =
        WorkflowFailure.of(
            WorkflowFailure.INSTANCE_EXISTS,
            "application",
            message,
            c.instanceId(),
            null,
            "sub-orchestration " + c.name() + ": " + message);
    String conflict =
        InboxCodec.encode(new ChildResult(c.seq(), null, c.name(), "FAILED", null, taken)).data();
    return new ChildStart(
        c.instanceId(), c.name(), c.version(), payloads.text(c.input()), c.seq(), conflict);
  }
}
