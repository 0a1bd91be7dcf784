package io.redrive.workflow.replay;

import io.redrive.workflow.history.Event.Completion;
import io.redrive.workflow.history.Event.TimerFired;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;

/** The timeout timer of a {@code waitForEvent}: firing before the event ends the wait empty. */
final class EventTimeout extends BaseTask<Void> {
  private final EventWait<?> event;

  EventTimeout(RunState run, long seq, EventWait<?> event) {
    super(run, seq);
    this.event = event;
  }

  @Override
  void resolve(HistoryEvent e, int at) {
    if (!(e.event() instanceof TimerFired)) {
      run.mismatchAt(e, (Completion) e.event(), EventKind.TIMER_CREATED);
      return;
    }
    succeed(null, at);
    if (!event.isDone()) {
      run.buffer.withdraw(event);
      event.timedOut(at);
    }
  }
}
