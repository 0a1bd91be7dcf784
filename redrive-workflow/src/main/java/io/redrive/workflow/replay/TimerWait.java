package io.redrive.workflow.replay;

import io.redrive.workflow.history.Event.TimerFired;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;

/** A user's timer: TIMER_CREATED, then done at its TIMER_FIRED. */
final class TimerWait extends BaseTask<Void> {
  TimerWait(RunState run, long seq) {
    super(run, seq);
  }

  @Override
  void resolve(HistoryEvent e, int at) {
    if (e.event() instanceof TimerFired) {
      succeed(null, at);
    } else {
      run.mismatchAt(
          e, (io.redrive.workflow.history.Event.Completion) e.event(), EventKind.TIMER_CREATED);
    }
  }
}
