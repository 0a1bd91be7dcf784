package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.TurnSuspended;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.Completion;
import io.redrive.workflow.history.Event.EventRaised;
import io.redrive.workflow.history.Event.RaisedEvent;
import io.redrive.workflow.history.Event.TimerFired;
import io.redrive.workflow.history.Event.TurnStarted;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.TimerPurpose;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The replay of one run: the cursor over its history, the time it shows, the tasks waiting for
 * results and the signals that stop the code (suspension, mismatch, an undecodable payload,
 * continue-as-new).
 *
 * <p>Implementation notes. History is consumed lazily, only when code awaits something not yet
 * done, so what {@link Task#isDone()}, {@code now()} and the event buffer show at a point of the
 * code is the same in every replay. Completions find their task by command number; one that comes
 * before the code issued its command waits as an orphan. Every stop is recorded in a field before
 * its signal is thrown, so code that catches {@code Throwable} cannot undo it. Entered only by the
 * run's own thread (checked by {@link #enter()}).
 */
final class RunState {
  final OrchestrationRun.Spec spec;
  final Payloads payloads;
  final CommandLog commands;
  final EventBuffer buffer;
  final List<Event> out = new ArrayList<>();
  final List<Long> lostTimers = new ArrayList<>();
  private final Map<Long, BaseTask<?>> tasks = new HashMap<>();
  private final Map<Long, HistoryEvent> orphans = new HashMap<>();

  /**
   * {@code bytesBefore[i]}: the data bytes of the first {@code i} events (for historySize); null
   * until the code first asks, so a turn whose code never asks encodes nothing for it.
   */
  private long[] bytesBefore;

  Thread owner;
  int cursor;
  Instant now;
  boolean suspended;
  Long suspendedAt;
  String mismatch;
  Mismatch mismatchDetail;
  String undecodable;
  boolean continued;
  String continueVersion;
  JsonNode continueInput;
  JsonNode customStatus;

  RunState(OrchestrationRun.Spec spec, Payloads payloads) {
    this.spec = spec;
    this.payloads = payloads;
    this.commands = new CommandLog(spec);
    this.buffer = new EventBuffer(spec.carriedEvents());
    this.now =
        spec.events().stream()
            .filter(e -> e.event() instanceof TurnStarted)
            .map(HistoryEvent::at)
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("history: no TURN_STARTED event"));
  }

  /** The size of the history the code has consumed so far. */
  long bytesConsumed() {
    if (bytesBefore == null) {
      long[] sums = new long[spec.events().size() + 1];
      for (int i = 0; i < spec.events().size(); i++) {
        Event e = spec.events().get(i).event();
        String data = payloads.text(EventCodec.encode(e).data());
        sums[i + 1] = sums[i] + data.getBytes(StandardCharsets.UTF_8).length;
      }
      bytesBefore = sums;
    }
    return bytesBefore[cursor];
  }

  /** True while the code runs over events that earlier turns wrote. */
  boolean isReplaying() {
    return cursor < spec.newFrom();
  }

  // ---- entering and stopping

  /** Checks the calling thread, then rethrows a stop the code already met. */
  void enter() {
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException(
          "OrchestrationContext: called from thread \""
              + Thread.currentThread().getName()
              + "\"; only the orchestration's own thread may use it, during its turn");
    }
    if (mismatch != null) {
      throw new ReplaySignal(mismatch);
    }
    if (undecodable != null) {
      throw new Payloads.UndecodablePayload(undecodable);
    }
    if (suspended) {
      suspend();
    }
    if (continued) {
      throw new ReplaySignal("continued as new");
    }
  }

  void suspend() {
    suspended = true;
    throw new TurnSuspended(
        "turn suspended: a result is not in history yet (never catch TurnSuspended)");
  }

  /** Records a continue-as-new and stops the code. */
  ReplaySignal continueAsNew(String version, JsonNode input) {
    continued = true;
    continueVersion = version;
    continueInput = input;
    throw new ReplaySignal("continued as new");
  }

  /** Records a mismatch and stops the code. */
  ReplaySignal mismatch(String message, Mismatch detail) {
    mismatch = message;
    mismatchDetail = detail;
    throw new ReplaySignal(message);
  }

  /** Awaits {@code task}: advances through history until it is done, else suspends. */
  void awaitDone(BaseTask<?> task) {
    enter();
    while (!task.isDone()) {
      if (!advance()) {
        suspendedAt = task.seq;
        suspend();
      }
    }
  }

  /** Advances until {@code done} holds, else suspends (for tasks made of tasks). */
  void awaitAll(java.util.function.BooleanSupplier done) {
    enter();
    while (!done.getAsBoolean()) {
      if (!advance()) {
        suspend();
      }
    }
  }

  /**
   * A recorded payload decoded as {@code type}; one that no longer decodes is recorded before it is
   * thrown.
   */
  Object decode(String what, JsonNode node, Type type) {
    try {
      return payloads.decode(what, node, type);
    } catch (Payloads.UndecodablePayload u) {
      undecodable = u.getMessage();
      throw u;
    }
  }

  // ---- the cursor over history

  /** Takes the next history event; false when history has ended. */
  boolean advance() {
    if (cursor >= spec.events().size()) {
      return false;
    }
    int position = cursor;
    HistoryEvent e = spec.events().get(cursor++);
    Event event = e.event();
    if (event instanceof TurnStarted) {
      now = e.at();
    } else if (event instanceof TimerFired t) {
      timerFired(e, t, position);
    } else if (event instanceof Completion c) {
      BaseTask<?> task = tasks.get(c.seq());
      if (task == null) {
        orphan(e, c);
      } else {
        task.resolve(e, position);
      }
    } else if (event instanceof EventRaised r) {
      buffer.arrived(r.name(), r.payload(), position);
    }
    return true;
  }

  private void timerFired(HistoryEvent e, TimerFired fired, int position) {
    BaseTask<?> task = tasks.get(fired.seq());
    if (task == null) {
      orphan(e, fired);
      return;
    }
    if (fired.purpose() == TimerPurpose.RETRY && task instanceof Retrying r) {
      r.retryFired(fired.retryNumber() != null ? fired.retryNumber() : r.retryNumber() + 1);
      return;
    }
    task.resolve(e, position);
  }

  /**
   * Keeps a completion whose command the code has not issued yet; one whose number history has no
   * command for is a mismatch (docs/workflows.md §4.2 (c)).
   */
  private void orphan(HistoryEvent e, Completion c) {
    if (!commands.has(c.seq())) {
      mismatchAt(e, c, commandKindOf(c));
    }
    orphans.put(c.seq(), e);
  }

  private static String commandKindOf(Completion c) {
    if (c instanceof Event.ActivityCompleted || c instanceof Event.ActivityFailed) {
      return EventKind.ACTIVITY_SCHEDULED;
    }
    if (c instanceof Event.ChildCompleted || c instanceof Event.ChildFailed) {
      return EventKind.CHILD_SCHEDULED;
    }
    return EventKind.TIMER_CREATED;
  }

  /** Makes {@code task} the one that results for its number go to. */
  <T extends BaseTask<?>> T register(T task) {
    tasks.put(task.seq, task);
    HistoryEvent early = orphans.remove(task.seq);
    if (early != null) {
      task.resolve(early, spec.events().indexOf(early));
    }
    return task;
  }

  /** A completion that does not fit the command of its number: recorded, then the code stops. */
  void mismatchAt(HistoryEvent e, Completion c, String expectedCommand) {
    Event.Command command = commands.recorded(c.seq());
    String has = command == null ? "no such command" : command.kind() + " " + command.label();
    String message =
        "nondeterminism: "
            + spec.instanceId()
            + " execution "
            + spec.executionId()
            + " event "
            + e.eventId()
            + ": "
            + e.kind()
            + " refers to command #"
            + c.seq()
            + ", history has "
            + has
            + " (expected "
            + expectedCommand
            + ")";
    mismatch(
        message,
        new Mismatch(
            e.eventId(),
            c.seq(),
            e.kind()
                + " for "
                + (command == null ? "no command" : command.kind() + " " + command.label()),
            expectedCommand + " #" + c.seq()));
  }

  /** Events raised but not consumed, oldest first, for the next execution. */
  List<RaisedEvent> unconsumedEvents() {
    List<RaisedEvent> result = buffer.unconsumed();
    for (int i = cursor; i < spec.events().size(); i++) {
      if (spec.events().get(i).event() instanceof EventRaised r) {
        result.add(new RaisedEvent(r.name(), r.payload()));
      }
    }
    return result;
  }

  /** The failure of a run whose code threw. */
  WorkflowFailure failureOf(Exception e) {
    WorkflowFailure cause =
        e instanceof io.redrive.workflow.WorkflowException w ? w.failure() : null;
    String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
    return new WorkflowFailure(
        WorkflowFailure.ORCHESTRATION_EXCEPTION,
        "application",
        message,
        e.getClass().getName(),
        io.redrive.failure.StackTraces.bounded(e, io.redrive.failure.StackTraces.DEFAULT_MAX_CHARS),
        false,
        null,
        null,
        null,
        null,
        spec.instanceId(),
        spec.executionId(),
        null,
        null,
        null,
        List.of(),
        null,
        cause,
        null);
  }

  /** A task that a retry policy may schedule again (an activity or child call). */
  interface Retrying {
    int retryNumber();

    void retryFired(int number);
  }
}
