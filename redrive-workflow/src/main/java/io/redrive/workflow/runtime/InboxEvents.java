package io.redrive.workflow.runtime;

import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ActivityCompleted;
import io.redrive.workflow.history.Event.ActivityFailed;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.Event.ChildCompleted;
import io.redrive.workflow.history.Event.ChildFailed;
import io.redrive.workflow.history.Event.ChildScheduled;
import io.redrive.workflow.history.Event.Command;
import io.redrive.workflow.history.Event.EventRaised;
import io.redrive.workflow.history.Event.TimerCreated;
import io.redrive.workflow.history.Event.TimerFired;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.InboxCodec;
import io.redrive.workflow.history.InboxMessage;
import io.redrive.workflow.history.InboxMessage.ActivityFailure;
import io.redrive.workflow.history.InboxMessage.ActivityResult;
import io.redrive.workflow.history.InboxMessage.ChildResult;
import io.redrive.workflow.history.InboxMessage.Result;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A turn's batch as history events (docs/workflows.md, "What each case does"): events raised, and
 * each result of a command this execution issued whose try has not ended yet; results for another
 * execution, an unknown command or an ended try are stale and dropped. A system failure among the
 * results (an activity's poison, a child's) stops the conversion: the turn's code does not run. One
 * turn, one thread.
 */
final class InboxEvents {
  private final String instanceId;
  private final TurnExecution execution;
  private final int maxAttempts;

  /** The latest scheduling of each command (a retry's carries its number and child id). */
  private final Map<Long, Command> scheduled = new HashMap<>();

  private final Map<Long, Integer> retries = new HashMap<>();
  private final Set<String> ended = new HashSet<>();
  int stale;
  WorkflowFailure systemFailure;
  boolean activityPoisoned;

  InboxEvents(
      String instanceId, TurnExecution execution, List<HistoryEvent> stored, int maxAttempts) {
    this.instanceId = instanceId;
    this.execution = execution;
    this.maxAttempts = maxAttempts;
    if (execution.isNew) {
      return;
    }
    for (HistoryEvent h : stored) {
      Event e = h.event();
      if (e instanceof ActivityScheduled a) {
        latest(a.seq(), a, a.retryNumber());
      } else if (e instanceof ChildScheduled c) {
        latest(c.seq(), c, c.retryNumber());
      } else if (e instanceof TimerCreated t) {
        scheduled.putIfAbsent(t.seq(), t);
      } else if (e instanceof ActivityCompleted c) {
        ended.add(key("ACTIV", c.seq(), c.retryNumber()));
      } else if (e instanceof ActivityFailed f) {
        ended.add(key("ACTIV", f.seq(), f.retryNumber()));
      } else if (e instanceof ChildCompleted c) {
        ended.add(key("CHILD", c.seq(), c.retryNumber()));
      } else if (e instanceof ChildFailed f) {
        ended.add(key("CHILD", f.seq(), f.retryNumber()));
      } else if (e instanceof TimerFired t) {
        ended.add(key("TIMER", t.seq(), t.retryNumber() == null ? 0 : t.retryNumber()));
      }
    }
  }

  private void latest(long seq, Command command, int retryNumber) {
    Integer before = retries.get(seq);
    if (before == null || retryNumber >= before) {
      scheduled.put(seq, command);
    }
    retries.merge(seq, retryNumber, Math::max);
  }

  /** Adds the batch's events to {@code draft}; stops at the first system failure. */
  void convert(TurnBatch batch, TurnDraft draft) {
    for (InboxMessage m : batch.messages()) {
      if (systemFailure != null) {
        return;
      }
      if (m instanceof InboxMessage.EventRaised r) {
        draft.add(new EventRaised(r.name(), r.payload()));
      } else if (m instanceof Result r) {
        boolean otherExecution = r.executionId() != null && r.executionId() != execution.id;
        Command command = scheduled.get(r.seq());
        if (otherExecution || command == null) {
          stale++;
        } else {
          systemFailure = completion(r, command, draft);
        }
      } else if (m instanceof InboxMessage.Unknown) {
        stale++;
      }
    }
  }

  /** One result as its completion event; returns a system failure it carries, if any. */
  private WorkflowFailure completion(Result result, Command command, TurnDraft draft) {
    long seq = result.seq();
    if (result instanceof ActivityResult r) {
      int retry = retries.getOrDefault(seq, 0);
      if (!(command instanceof ActivityScheduled a) || !ended.add(key("ACTIV", seq, retry))) {
        stale++;
        return null;
      }
      if ("COMPLETED".equals(r.outcome())) {
        draft.add(
            new ActivityCompleted(seq, a.name(), retry, r.messageId(), r.result(), r.attempts()));
        return null;
      }
      WorkflowFailure failure = activityFailure(r, a.name(), seq);
      draft.add(new ActivityFailed(seq, a.name(), retry, r.messageId(), failure, r.attempts()));
      activityPoisoned = failure.isSystem();
      return failure.isSystem() ? failure : null;
    }
    if (result instanceof InboxMessage.TimerFired t) {
      int retry = t.retryNumber() == null ? 0 : t.retryNumber();
      if (!ended.add(key("TIMER", seq, retry))) {
        stale++;
        return null;
      }
      draft.add(new TimerFired(seq, t.purpose(), t.retryNumber()));
      return null;
    }
    ChildResult r = (ChildResult) result;
    int retry = retries.getOrDefault(seq, 0);
    if (!(command instanceof ChildScheduled c) || !ended.add(key("CHILD", seq, retry))) {
      stale++;
      return null;
    }
    if (r.failure() == null) {
      draft.add(new ChildCompleted(seq, c.name(), retry, r.result()));
      return null;
    }
    WorkflowFailure failure = r.failure();
    if (failure.isSystem()) {
      failure = failure.passedThrough(c.instanceId());
    }
    draft.add(new ChildFailed(seq, c.name(), retry, failure));
    return failure.isSystem() ? failure : null;
  }

  private WorkflowFailure activityFailure(ActivityResult r, String name, long seq) {
    ActivityFailure f = r.failure();
    if ("POISONED".equals(r.outcome())) {
      int attempt = f.attempt() != null ? f.attempt() : r.attempt();
      int max = f.maxAttempts() != null ? f.maxAttempts() : maxAttempts;
      String poisoned = f.poisonedMessage();
      WorkflowFailure last =
          LastAttempts.ofDeliveries(r.attempts(), instanceId, execution.id, name, seq, max);
      return InboxCodec.crashLoopOf(poisoned)
          // The queue's crash-loop breaker poisoned it (docs/workflows.md, "Crash-loop breaker").
          .map(
              loop ->
                  WorkflowFailure.crashLoopActivity(
                      instanceId,
                      execution.id,
                      name,
                      seq,
                      loop.workers(),
                      attempt,
                      max,
                      loop.maxCrashes(),
                      poisoned,
                      last))
          .orElseGet(
              () ->
                  WorkflowFailure.poisonedActivity(
                      instanceId, execution.id, name, seq, attempt, max, poisoned, last));
    }
    String reason =
        f.reason() != null ? f.reason() : "EXPIRED".equals(r.outcome()) ? "EXPIRED" : "UNKNOWN";
    String message = f.message() != null ? f.message() : "";
    String display =
        "activity "
            + name
            + "#"
            + seq
            + " failed: "
            + reason
            + (message.isEmpty() ? "" : " " + message);
    return new WorkflowFailure(
        reason,
        f.category() != null ? f.category() : "application",
        message,
        null,
        f.stackTrace(),
        f.retryable(),
        f.retryAfterMs(),
        f.attempt(),
        f.maxAttempts(),
        null,
        instanceId,
        execution.id,
        name,
        seq,
        null,
        List.of(),
        null,
        null,
        display);
  }

  private static String key(String kind, long seq, int retryNumber) {
    return kind + seq + ":" + retryNumber;
  }
}
