package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.workflow.history.HistoryEvent;

/**
 * A {@code waitForEvent}: done when the oldest unconsumed event of its name reaches it, or (with a
 * timeout) when its timer fires first. Events go by name, never by command number.
 */
final class EventWait<T> extends BaseTask<T> {
  final String eventName;
  private final Class<T> type;
  Long timeoutSeq;
  boolean timedOut;

  EventWait(RunState run, String eventName, Class<T> type) {
    super(run, null);
    this.eventName = eventName;
    this.type = type;
  }

  @Override
  void resolve(HistoryEvent e, int at) {
    throw new IllegalStateException("events are delivered by name, not by number");
  }

  void receive(JsonNode payload, int at) {
    succeed(type.cast(run.decode("event " + eventName + " payload", payload, type)), at);
    if (timeoutSeq != null && at >= run.spec.newFrom()) {
      // The event beat its timeout in this turn: the timer's row can go.
      run.lostTimers.add(timeoutSeq);
    }
  }

  void timedOut(int at) {
    timedOut = true;
    succeed(null, at);
  }
}
